package commands

// composeCommands run other commands: in sequence, on every tab, or in the
// background while the user browses.
var composeCommands = []*Command{
	{Name: "chain", Category: Meta, Args: "", Summary: `Run commands in order from JSON on stdin: [["goto","URL"],["click","@e3"]]; stops at the first error (exit 1, with every step's report); each step has its own deadline`,
		Flags:   []Flag{{Name: "--continue", Help: "run every step even after one fails"}},
		MaxArgs: 1, Stdin: true, NoTab: true, NoBatch: true, Deadline: NavDeadline}, // Run is set in init
	{Name: "tab-each", Category: Meta, Args: "<command> [args…]", Summary: "Run a command on every tab at once; prints a JSON array of {tabId, url, ok, output|error}",
		MinArgs: 1, MaxArgs: -1, FreeText: true, NoTab: true, NoBatch: true, Deadline: NavDeadline}, // Run is set in init
	{Name: "watch", Category: Meta, Power: PowerControl, Args: "[stop]", Summary: "Snapshot the tab every 5 s while the user browses; 'watch stop' summarises navigations and changes",
		MaxArgs: 1, NoTab: true, Run: runWatch},
	{Name: "inbox", Category: Meta, Summary: "Messages from the sidebar scout (.gstack/browser-scout.jsonl), oldest first",
		Flags:   []Flag{{Name: "--clear", Help: "empty the inbox after reading it"}},
		MaxArgs: 0, NoTab: true, PageContent: true, Run: runInbox},
}

// chain and tab-each check their steps against the registry (an unknown
// name gets suggestions), and the registry holds them: their handlers are
// set here, after it is built, as help's are.
func init() {
	for _, c := range composeCommands {
		switch c.Name {
		case "chain":
			c.Run = runChain
		case "tab-each":
			c.Run = runTabEach
		}
	}
}
