package commands

import "context"

func runDiff(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
