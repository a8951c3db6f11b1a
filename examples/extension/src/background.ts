// The extension's service worker: it only makes the toolbar button open the
// side panel. The model does not run here: a service worker has no Worker
// constructor, and Chrome stops it after 30 s idle (docs/extension.md).
void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
