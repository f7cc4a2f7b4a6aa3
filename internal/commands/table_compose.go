package commands

// composeCommands run other commands: in sequence, on every tab, or in the
// background while the user browses.
var composeCommands = []*Command{
	{Name: "chain", Category: Meta, Args: "", Summary: `Run commands in order from JSON on stdin: [["goto","URL"],["click","@e3"]]; stops at the first error`,
		Flags:   []Flag{{Name: "--continue", Help: "run every step even after one fails"}},
		MaxArgs: 1, Stdin: true, NoTab: true, NoBatch: true, Deadline: NavDeadline, Run: runChain},
	{Name: "tab-each", Category: Meta, Args: "<command> [args…]", Summary: "Run a command on every tab; prints a JSON array of {tabId, url, ok, output|error}",
		MinArgs: 1, MaxArgs: -1, FreeText: true, NoTab: true, NoBatch: true, Deadline: NavDeadline, Run: runTabEach},
	{Name: "watch", Category: Meta, Args: "[stop]", Summary: "Snapshot every 5 s while the user browses; 'watch stop' summarises what changed",
		MaxArgs: 1, NoTab: true, Run: runWatch},
	{Name: "inbox", Category: Meta, Summary: "Messages from the sidebar scout (.gstack/browser-scout.jsonl)",
		Flags:   []Flag{{Name: "--clear", Help: "empty the inbox"}},
		MaxArgs: 0, NoTab: true, PageContent: true, Run: runInbox},
}
