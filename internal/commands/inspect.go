package commands

import "context"

func runStyle(ctx context.Context, c *Call) (string, error)   { return "", Errorf("", "not built yet") }
func runInspect(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
func runCDP(ctx context.Context, c *Call) (string, error)     { return "", Errorf("", "not built yet") }
func runMemory(ctx context.Context, c *Call) (string, error)  { return "", Errorf("", "not built yet") }
