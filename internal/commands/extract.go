package commands

import "context"

func runDownload(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
func runScrape(ctx context.Context, c *Call) (string, error)   { return "", Errorf("", "not built yet") }
func runArchive(ctx context.Context, c *Call) (string, error)  { return "", Errorf("", "not built yet") }
