// What an app's page bundle takes from tabagent: the whole public API, as
// published (zod is the app's own, so it stays out), used the way an app's
// entry uses it. An app's entry imports the package and exports nothing, so
// its bundler may put code the on-demand chunks share with it into the entry
// file; an entry that re-exported the package (`export *`) would keep its
// export signature and split that code into chunks of its own instead (about
// 1.4 kB gz more at the time of the change, for the same code).
import * as tabagent from 'tabagent';

(globalThis as { tabagent?: unknown }).tabagent = tabagent;
