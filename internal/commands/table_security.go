package commands

// securityCommands pair remote agents and open the tunnel they reach the
// browser through. Only the local user's (root) token may run them.
var securityCommands = []*Command{
	{Name: "pair-agent", Category: Meta, Power: PowerRoot, Args: "", Summary: "Make a single-use setup key (5 min) for a remote agent and print the instructions to paste into it",
		Flags: []Flag{
			{Name: "--client", Value: "name", Help: "the agent's name (letters, digits, '.', '_', '-'); default remote-<random>"},
			{Name: "--restrict", Value: "scopes", Help: "comma-separated scopes instead of the default read,write,admin,meta"},
			{Name: "--control", Help: "also grant the control scope (stop, restart, state, watch)"},
		},
		MaxArgs: 0, NoTab: true, TabFree: true, NoBatch: true, Run: runPairAgent},
	{Name: "tunnel", Category: Meta, Power: PowerRoot, Args: "<start|stop|status|agents|revoke <name>>", Summary: "Open or close the ngrok tunnel for remote agents (NGROK_AUTHTOKEN), list paired agents, revoke one",
		MinArgs: 1, MaxArgs: 2, NoTab: true, TabFree: true, NoBatch: true, Deadline: NavDeadline, Run: runTunnel},
}
