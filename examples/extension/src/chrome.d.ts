// The few extension APIs this example calls, typed by hand so the repository
// needs no @types/chrome; your own extension would install @types/chrome.
declare namespace chrome {
  namespace tabs {
    interface Tab {
      id?: number;
      url?: string;
      title?: string;
      active: boolean;
      windowId: number;
      lastAccessed?: number;
    }
    function query(query: { active?: boolean; lastFocusedWindow?: boolean; url?: string | string[] }): Promise<Tab[]>;
  }
  namespace scripting {
    interface InjectionResult<T> {
      frameId: number;
      result?: T;
    }
    function executeScript<Args extends unknown[], Result>(injection: { target: { tabId: number; allFrames?: boolean }; func: (...args: Args) => Result; args?: Args }): Promise<Array<InjectionResult<Awaited<Result>>>>;
  }
  namespace runtime {
    function getURL(path: string): string;
  }
  namespace sidePanel {
    function setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>;
  }
  namespace storage {
    interface StorageArea {
      get(keys: string | string[]): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
    }
    const local: StorageArea;
  }
}
