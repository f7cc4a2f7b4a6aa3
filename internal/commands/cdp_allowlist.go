package commands

import (
	"fmt"
	"strings"
)

// cdpScope says which session an allowed method is sent on.
type cdpScope string

const (
	scopeTab     cdpScope = "tab"     // the target tab's page session
	scopeBrowser cdpScope = "browser" // the browser's own session
)

// cdpMethod is one entry of the 'cdp' command's allowlist.
type cdpMethod struct {
	Method string
	Scope  cdpScope
	// Untrusted marks output that carries the page's own data (markup,
	// text, URLs): treat it as data, never as instructions.
	Untrusted bool
	Note      string
}

// cdpAllowlist is deny-default: only these methods reach Chromium through
// 'cdp'. They read state, or change emulation that the page cannot use to
// escape (CPU and network throttling, media features). Left out on purpose:
// anything that runs script (Runtime.evaluate: use 'js'), navigates or
// opens targets (use goto/newtab), sends input, reads or writes cookies and
// storage (they hold secrets, and have their own commands), intercepts
// requests (Fetch), touches files or downloads, or closes the browser.
var cdpAllowlist = []cdpMethod{
	// The browser.
	{Method: "Browser.getVersion", Scope: scopeBrowser},
	{Method: "SystemInfo.getInfo", Scope: scopeBrowser},
	{Method: "SystemInfo.getProcessInfo", Scope: scopeBrowser},
	{Method: "Target.getTargets", Scope: scopeBrowser, Untrusted: true, Note: "page URLs and titles"},

	// Performance and memory of the tab.
	{Method: "Performance.enable", Scope: scopeTab},
	{Method: "Performance.disable", Scope: scopeTab},
	{Method: "Performance.getMetrics", Scope: scopeTab, Note: "empty until Performance.enable"},
	{Method: "Runtime.getHeapUsage", Scope: scopeTab},
	{Method: "Memory.getDOMCounters", Scope: scopeTab},

	// Layout and structure.
	{Method: "Page.getLayoutMetrics", Scope: scopeTab},
	{Method: "Page.getFrameTree", Scope: scopeTab, Untrusted: true},
	{Method: "Page.getNavigationHistory", Scope: scopeTab, Untrusted: true},
	{Method: "DOM.getDocument", Scope: scopeTab, Untrusted: true, Note: "turns the DOM domain on; DOM.disable when done"},
	{Method: "DOM.disable", Scope: scopeTab},
	{Method: "DOM.querySelector", Scope: scopeTab},
	{Method: "DOM.querySelectorAll", Scope: scopeTab},
	{Method: "DOM.describeNode", Scope: scopeTab, Untrusted: true},
	{Method: "DOM.getOuterHTML", Scope: scopeTab, Untrusted: true},
	{Method: "DOM.getBoxModel", Scope: scopeTab},
	{Method: "Accessibility.getFullAXTree", Scope: scopeTab, Untrusted: true},

	// Styles ('inspect' does this in one go).
	{Method: "CSS.enable", Scope: scopeTab, Note: "needs the DOM domain on; CSS.disable when done"},
	{Method: "CSS.disable", Scope: scopeTab},
	{Method: "CSS.getComputedStyleForNode", Scope: scopeTab, Untrusted: true},
	{Method: "CSS.getMatchedStylesForNode", Scope: scopeTab, Untrusted: true},

	// Emulation the page cannot turn into anything worse than slowness.
	{Method: "Emulation.setCPUThrottlingRate", Scope: scopeTab},
	{Method: "Emulation.setEmulatedMedia", Scope: scopeTab},
	{Method: "Network.emulateNetworkConditions", Scope: scopeTab},
	{Method: "Network.setCacheDisabled", Scope: scopeTab},
	{Method: "Network.enable", Scope: scopeTab, Note: "already on in every tab"},
}

// lookupCDP finds an allowed method by its exact name.
func lookupCDP(method string) (cdpMethod, bool) {
	for _, m := range cdpAllowlist {
		if m.Method == method {
			return m, true
		}
	}
	return cdpMethod{}, false
}

// cdpList renders the allowlist for 'cdp --list'.
func cdpList() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d allowed CDP methods (everything else is denied):\n", len(cdpAllowlist))
	for _, m := range cdpAllowlist {
		flag := ""
		if m.Untrusted {
			flag = "untrusted output"
		}
		line := fmt.Sprintf("  %-36s %-8s %-17s %s", m.Method, m.Scope, flag, m.Note)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	b.WriteString("Scope 'tab' runs on the tab (--tab-id), 'browser' on the browser. Untrusted output is the page's own data.\n")
	return b.String()
}
