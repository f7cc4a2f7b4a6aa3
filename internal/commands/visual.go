package commands

import "context"

// IsScreenshotPath reports whether a positional screenshot argument is an
// output path rather than a selector.
func IsScreenshotPath(arg string) bool { return true }

func runScreenshot(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
func runPDF(ctx context.Context, c *Call) (string, error)        { return "", Errorf("", "not built yet") }
func runResponsive(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
func runCleanup(ctx context.Context, c *Call) (string, error)    { return "", Errorf("", "not built yet") }
func runPrettyScreenshot(ctx context.Context, c *Call) (string, error) {
	return "", Errorf("", "not built yet")
}
func runLoadHTML(ctx context.Context, c *Call) (string, error) { return "", Errorf("", "not built yet") }
