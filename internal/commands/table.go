package commands

// registry is the one list of commands. Help, usage errors, suggestions,
// dispatch and docs/commands.md are all derived from it.
var registry = []*Command{
	// Navigation
	{Name: "goto", Category: Write, Args: "<url>", Summary: "Navigate to a URL (http, https, file://, about:blank); waits for DOMContentLoaded",
		MinArgs: 1, MaxArgs: 1, Tunnel: true, Deadline: NavDeadline, Run: runGoto},
	{Name: "back", Category: Write, Summary: "Go back in the tab's history", MaxArgs: 0, Tunnel: true, Deadline: NavDeadline, Run: runBack},
	{Name: "forward", Category: Write, Summary: "Go forward in the tab's history", MaxArgs: 0, Tunnel: true, Deadline: NavDeadline, Run: runForward},
	{Name: "reload", Category: Write, Summary: "Reload the page", MaxArgs: 0, Tunnel: true, Deadline: NavDeadline, Run: runReload},
	{Name: "url", Category: Read, Summary: "Print the current URL", MaxArgs: 0, Tunnel: true, Run: runURL},
	{Name: "wait", Category: Read, Args: "<sel|--networkidle|--load|--domcontentloaded> [ms]",
		Summary: "Wait for a visible element, network idle, or a load stage (15 s default)",
		Flags: []Flag{
			{Name: "--networkidle", Help: "no request in flight for 500 ms"},
			{Name: "--load", Help: "the load event has fired"},
			{Name: "--domcontentloaded", Help: "the DOM is parsed"},
		},
		MaxArgs: 2, Tunnel: true, Run: runWait},

	// Reading
	{Name: "text", Category: Read, Args: "[sel]", Summary: "Clean visible text of the page, or of one element",
		MaxArgs: 1, PageContent: true, Tunnel: true, Run: runText},
	{Name: "html", Category: Read, Args: "[sel]", Summary: "innerHTML of an element, or the whole page's HTML",
		MaxArgs: 1, PageContent: true, Tunnel: true, Run: runHTML},
	{Name: "links", Category: Read, Summary: "All links as 'text → href'", MaxArgs: 0, PageContent: true, Tunnel: true, Run: runLinks},
	{Name: "forms", Category: Read, Summary: "Forms and their fields as JSON (password values masked)", MaxArgs: 0, PageContent: true, Tunnel: true, Run: runForms},
	{Name: "js", Category: Read, Args: "<expr>", Summary: "Run a JavaScript expression in the page; code with await is wrapped in an async function",
		MinArgs: 1, MaxArgs: -1, FreeText: true, PageContent: true, Run: runJS},
	{Name: "eval", Category: Read, Args: "<file>", Summary: "Run a JavaScript file (under the workspace or the temp dir) in the page",
		MinArgs: 1, MaxArgs: 1, PathArgs: []int{0}, PageContent: true, Run: runEval},

	// Tabs
	{Name: "tabs", Category: Meta, Summary: "List open tabs; * marks the active one", MaxArgs: 0, NoTab: true, Tunnel: true, Run: runTabs},
	{Name: "tab", Category: Meta, Args: "<id>", Summary: "Switch the active tab", MinArgs: 1, MaxArgs: 1, NoTab: true, Tunnel: true, Run: runTab},
	{Name: "newtab", Category: Meta, Args: "[url]", Summary: "Open a tab (and make it active), optionally navigating it",
		Flags:   []Flag{{Name: "--json", Help: `print {"tabId":N,"url":…}`}},
		MaxArgs: 1, NoTab: true, Tunnel: true, Deadline: NavDeadline, Run: runNewTab},
	{Name: "closetab", Category: Meta, Args: "[id]", Summary: "Close a tab (default: the active one)", MaxArgs: 1, NoTab: true, Tunnel: true, Run: runCloseTab},

	// Captured events
	{Name: "console", Category: Read, Summary: "Console messages and uncaught errors captured since the tab opened",
		Flags:   []Flag{{Name: "--clear", Help: "empty the buffer"}, {Name: "--errors", Help: "errors and warnings only"}},
		MaxArgs: 0, NoTab: true, PageContent: true, Tunnel: true, Run: runConsole},
	{Name: "network", Category: Read, Summary: "Network requests with status, time and size",
		Flags:   []Flag{{Name: "--clear", Help: "empty the buffer"}},
		MaxArgs: 0, NoTab: true, Tunnel: true, Run: runNetwork},
	{Name: "dialog", Category: Read, Summary: "Dialogs (alert, confirm, prompt) and how they were answered",
		Flags:   []Flag{{Name: "--clear", Help: "empty the buffer"}},
		MaxArgs: 0, NoTab: true, PageContent: true, Tunnel: true, Run: runDialog},

	// The daemon
	{Name: "status", Category: Meta, Summary: "Daemon health: pid, mode, browser, tabs, uptime", MaxArgs: 0, NoTab: true, Run: runStatus},
	{Name: "stop", Category: Meta, Summary: "Shut down the daemon and its browser", MaxArgs: 0, NoTab: true, Run: runStop},
	{Name: "restart", Category: Meta, Summary: "Restart the daemon and browser with the same settings", MaxArgs: 0, NoTab: true, Local: true},
	{Name: "help", Category: Meta, Args: "[command]", Summary: "List commands, or show one command's usage and flags",
		Flags:   []Flag{{Name: "--markdown", Help: "print the full command reference as Markdown"}},
		MaxArgs: 1, NoTab: true, Local: true}, // Run is set in init: help reads the registry
}
