package commands

// inspectCommands look into CSS, the raw protocol and memory.
var inspectCommands = []*Command{
	{Name: "style", Category: Write, Power: PowerAdmin, Args: "<sel> <prop> <value> | --undo [N]", Summary: "Set an inline CSS property on an element ('!important' allowed); undo with --undo",
		Flags:   []Flag{{Name: "--undo", Help: "undo the last N style changes on this page, newest first (default 1; the history keeps 200)"}},
		MaxArgs: -1, FreeText: true, Run: runStyle},
	{Name: "inspect", Category: Read, Args: "[sel]", Summary: "Matched CSS rules with specificity and source, inline style, computed styles, box model (default: body)",
		Flags: []Flag{
			{Name: "--all", Help: "include user-agent rules and every computed property"},
			{Name: "--history", Help: "list the changes made with 'style'"},
		},
		MaxArgs: 1, Run: runInspect},
	{Name: "cdp", Category: Meta, Power: PowerAdmin, Args: "<Domain.method> [json]", Summary: "Call a Chrome DevTools Protocol method from the allowlist ('cdp --list' shows it)",
		Flags: []Flag{
			{Name: "--list", Help: "list the allowed methods, their scope and whether their output is page data"},
			{Name: "--json", Value: "params", Help: "the params as a JSON object (instead of the second argument)"},
		},
		MaxArgs: 2, FreeText: true, Run: runCDP},
	{Name: "memory", Category: Meta, Summary: "Memory of the daemon, each tab and the Chromium processes, and the bounded buffers",
		Flags:   []Flag{{Name: "--json", Help: "as JSON"}},
		MaxArgs: 0, NoTab: true, Run: runMemory},
}
