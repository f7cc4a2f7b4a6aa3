package commands

import "context"

func runChain(ctx context.Context, c *Call) (string, error)   { return "", Errorf("", "not built yet") }
func runTabEach(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
func runWatch(ctx context.Context, c *Call) (string, error)   { return "", Errorf("", "not built yet") }
func runInbox(ctx context.Context, c *Call) (string, error)   { return "", Errorf("", "not built yet") }
