package commands

import (
	"context"
	"fmt"
	"time"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/browsehq/browse/internal/browser"
)

// runArchive saves the page with everything it shows (styles, images,
// frames) as one MHTML file.
func runArchive(ctx context.Context, c *Call) (string, error) {
	path, err := outputPath(c, optionalArg(c), fmt.Sprintf("browse-archive-%d.mhtml", time.Now().UnixMilli()))
	if err != nil {
		return "", err
	}
	snap, err := cdproto.Call(ctx, c.Tab.Session, page.CaptureSnapshot, page.CaptureSnapshotParams{Format: page.CaptureSnapshotFormatMhtml})
	if err != nil {
		return "", pageError(err)
	}
	if err := writeOutput(path, []byte(snap.Data)); err != nil {
		return "", err
	}
	return fmt.Sprintf("Archived %s → %s (%s, MHTML)", c.Tab.URL(), path, browser.HumanBytes(int64(len(snap.Data)))), nil
}
