package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/browsehq/browse/internal/browser"
)

// defaultMaxHTMLBytes caps load-html at 50 MB unless
// GSTACK_BROWSE_MAX_HTML_BYTES says otherwise.
const defaultMaxHTMLBytes = 50 << 20

const htmlLimitHint = "Split the page, or raise GSTACK_BROWSE_MAX_HTML_BYTES."

// htmlExtensions are the files load-html takes.
var htmlExtensions = []string{".html", ".htm", ".xhtml", ".svg"}

func maxHTMLBytes() int64 {
	if n, err := strconv.ParseInt(os.Getenv("GSTACK_BROWSE_MAX_HTML_BYTES"), 10, 64); err == nil && n > 0 {
		return n
	}
	return defaultMaxHTMLBytes
}

// CheckHTML refuses content that is not markup: a binary renamed .html
// (an image, an archive, an executable) is caught by its first bytes.
func CheckHTML(data []byte) error {
	sniffed := http.DetectContentType(data)
	if strings.HasPrefix(sniffed, "text/") {
		return nil
	}
	return fmt.Errorf("its content is %s, not HTML", strings.SplitN(sniffed, ";", 2)[0])
}

// htmlPayload is load-html's --from-file JSON.
type htmlPayload struct {
	HTML string `json:"html"`
}

func runLoadHTML(ctx context.Context, c *Call) (string, error) {
	cmd := mustLookup("load-html")
	var html []byte
	var source string
	switch payload, fromFile := c.Flags["--from-file"]; {
	case fromFile && len(c.Args) > 0:
		return "", UsageError(cmd, "Give a file or --from-file, not both.")
	case fromFile:
		// The payload is JSON: escaping can double the markup's size.
		data, err := readCheckedFile(c, payload, 2*maxHTMLBytes(), htmlLimitHint)
		if err != nil {
			return "", err
		}
		var p htmlPayload
		if err := json.Unmarshal(data, &p); err != nil || p.HTML == "" {
			return "", Errorf(`Write {"html": "<!doctype html>…"} to the file.`, "Bad --from-file payload %s: it needs a JSON object with a non-empty \"html\" string.", payload)
		}
		html, source = []byte(p.HTML), payload
	case len(c.Args) == 1:
		var err error
		if html, err = readHTMLFile(c, c.Args[0]); err != nil {
			return "", err
		}
		source = c.Args[0]
	default:
		return "", UsageError(cmd, "Give the HTML file to load.")
	}
	if limit := maxHTMLBytes(); int64(len(html)) > limit {
		return "", Errorf(htmlLimitHint, "%s is %s, over the %s limit for load-html.", source, browser.HumanBytes(int64(len(html))), browser.HumanBytes(limit))
	}
	if err := CheckHTML(html); err != nil {
		return "", Errorf("load-html takes HTML or SVG markup.", "Refusing to load %s: %v.", source, err)
	}
	pending, err := c.Tab.SetContent(ctx, string(html), min(10*time.Second, c.Timeout/2))
	if err != nil {
		return "", navError(c, "about:blank", err)
	}
	msg := fmt.Sprintf("Loaded %s (%s) into tab %d; its URL is about:blank, so relative links and assets do not resolve", source, browser.HumanBytes(int64(len(html))), c.Tab.ID)
	if pending {
		msg += "\nNote: the markup is in place, but some of its images, styles or scripts were still loading; 'wait --load' waits for them."
	}
	return msg, nil
}

// readHTMLFile reads a local page for load-html: an HTML or SVG file, inside
// the safe directories, not over the size cap.
func readHTMLFile(c *Call, path string) ([]byte, error) {
	if !slices.Contains(htmlExtensions, strings.ToLower(filepath.Ext(path))) {
		return nil, Errorf("Use a .html, .htm, .xhtml or .svg file (or 'goto file://…' for other pages).", "Refusing to load %s: load-html takes .html, .htm, .xhtml or .svg files.", path)
	}
	return readCheckedFile(c, path, maxHTMLBytes(), htmlLimitHint)
}
