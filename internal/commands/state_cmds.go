package commands

import "context"

func runCookies(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
func runCookie(ctx context.Context, c *Call) (string, error)  { return "", Errorf("", "not built yet") }
func runCookieImport(ctx context.Context, c *Call) (string, error) {
	return "", Errorf("", "not built yet")
}
func runStorage(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
func runHeader(ctx context.Context, c *Call) (string, error)  { return "", Errorf("", "not built yet") }
func runUserAgent(ctx context.Context, c *Call) (string, error) {
	return "", Errorf("", "not built yet")
}
func runState(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
