package commands

import "context"

func runMedia(ctx context.Context, c *Call) (string, error)   { return "", Errorf("", "not built yet") }
func runData(ctx context.Context, c *Call) (string, error)    { return "", Errorf("", "not built yet") }
func runUXAudit(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
func runPerf(ctx context.Context, c *Call) (string, error)    { return "", Errorf("", "not built yet") }
