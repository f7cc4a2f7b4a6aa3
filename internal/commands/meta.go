package commands

import "context"

func runStatus(ctx context.Context, c *Call) (string, error) {
	return c.Daemon.Status(), nil
}

func runStop(ctx context.Context, c *Call) (string, error) {
	c.Daemon.Shutdown()
	return "Stopped", nil
}

func runHelp(ctx context.Context, c *Call) (string, error) {
	if c.Has("--markdown") {
		return Reference(), nil
	}
	if len(c.Args) == 0 {
		return Help(), nil
	}
	cmd, ok := Lookup(c.Args[0])
	if !ok {
		return "", UnknownCommand(c.Args[0])
	}
	return CommandHelp(cmd), nil
}

func mustLookup(name string) *Command {
	c, ok := Lookup(name)
	if !ok {
		panic("command not in registry: " + name)
	}
	return c
}
