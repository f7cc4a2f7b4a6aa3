package commands

import (
	"context"
	"strings"
)

func runPairAgent(ctx context.Context, c *Call) (string, error) {
	req := PairRequest{Client: c.Flags["--client"], Control: c.Has("--control")}
	if r, ok := c.Flags["--restrict"]; ok {
		req.Scopes = strings.Split(r, ",")
	}
	return c.Daemon.Pair(ctx, req)
}

func runTunnel(ctx context.Context, c *Call) (string, error) {
	action, arg := c.Args[0], ""
	if len(c.Args) == 2 {
		arg = c.Args[1]
	}
	switch {
	case action == "revoke" && arg != "":
	case action == "revoke":
		return "", UsageError(mustLookup("tunnel"), "Name the agent to revoke ('tunnel agents' lists them).")
	case arg != "":
		return "", UsageError(mustLookup("tunnel"), "'tunnel %s' takes no argument.", action)
	case action != "start" && action != "stop" && action != "status" && action != "agents":
		return "", UsageError(mustLookup("tunnel"), "Unknown action '%s'.", action)
	}
	return c.Daemon.Tunnel(ctx, action, arg)
}

// notBase64: a screenshot without --base64 writes a file, to its default
// name when no path is given.
func notBase64(_ []string, flags map[string]string) bool {
	_, ok := flags["--base64"]
	return !ok
}

// annotates: snapshot -a writes an annotated screenshot.
func annotates(_ []string, flags map[string]string) bool {
	_, ok := flags["-a"]
	return ok
}
