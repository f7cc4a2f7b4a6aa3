package commands

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/page"

	"github.com/browsehq/browse/internal/browser"
)

// IsScreenshotPath reports whether a positional screenshot argument is an
// output path. As in the reference: @e/@c refs and words starting with '.',
// '#' or '[' are selectors; anything else is a path. (A bare tag name such as
// "button" is therefore a path: use --selector for it.)
func IsScreenshotPath(arg string) bool {
	if browser.IsRef(arg) || strings.HasPrefix(arg, "@") {
		return false
	}
	return arg == "" || !strings.ContainsRune(".#[", rune(arg[0])) ||
		// "./shot.png" and "../shot.png" are relative paths, not class selectors.
		strings.HasPrefix(arg, "./") || strings.HasPrefix(arg, "../")
}

// screenshotRequest is screenshot's arguments, checked.
type screenshotRequest struct {
	selector string // element crop (CSS or ref)
	clip     *browser.Rect
	viewport bool
	base64   bool
	fullRes  bool
	path     string
}

// parseScreenshot classifies the positional arguments and enforces the
// reference's exclusions: --clip with a selector, --viewport with --clip,
// and --selector with a positional selector.
func parseScreenshot(args []string, flags map[string]string) (screenshotRequest, error) {
	cmd := mustLookup("screenshot")
	r := screenshotRequest{selector: flags["--selector"]}
	_, r.viewport = flags["--viewport"]
	_, r.base64 = flags["--base64"]
	_, r.fullRes = flags["--full-resolution"]
	if _, ok := flags["--selector"]; ok && strings.TrimSpace(r.selector) == "" {
		return r, UsageError(cmd, "--selector needs a CSS selector.")
	}
	for _, a := range args {
		switch {
		case !IsScreenshotPath(a) && r.selector != "":
			if _, ok := flags["--selector"]; ok {
				return r, UsageError(cmd, "Give the element once: --selector %q and %q both name one.", r.selector, a)
			}
			return r, UsageError(cmd, "Give one element to crop to, not %q and %q.", r.selector, a)
		case !IsScreenshotPath(a):
			r.selector = a
		case r.path != "":
			return r, UsageError(cmd, "Give one output path, not %q and %q.", r.path, a)
		default:
			r.path = a
		}
	}
	if v, ok := flags["--clip"]; ok {
		clip, err := ParseClip(v)
		if err != nil {
			return r, UsageError(cmd, "%v.", err)
		}
		r.clip = &clip
	}
	switch {
	case r.clip != nil && r.selector != "":
		return r, UsageError(cmd, "--clip and an element crop (%s) exclude each other: pick one.", r.selector)
	case r.clip != nil && r.viewport:
		return r, UsageError(cmd, "--clip already is a region of the viewport: drop --viewport.")
	case r.base64 && r.path != "":
		return r, UsageError(cmd, "--base64 prints the image instead of writing %s: drop one of them.", r.path)
	}
	if r.path != "" {
		if _, err := imageFormat(r.path); err != nil {
			return r, UsageError(cmd, "%v.", err)
		}
	}
	return r, nil
}

// ParseClip reads "x,y,w,h" in CSS pixels.
func ParseClip(s string) (browser.Rect, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return browser.Rect{}, fmt.Errorf("--clip takes x,y,width,height in CSS pixels (e.g. 0,0,800,600), got %q", s)
	}
	var v [4]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > 100000 {
			return browser.Rect{}, fmt.Errorf("--clip values must be numbers from 0 to 100000, got %q", p)
		}
		v[i] = f
	}
	if v[2] < 1 || v[3] < 1 {
		return browser.Rect{}, fmt.Errorf("--clip width and height must be at least 1 pixel, got %q", s)
	}
	return browser.Rect{X: v[0], Y: v[1], W: v[2], H: v[3]}, nil
}

// imageFormat picks the encoding from a path's extension.
func imageFormat(path string) (page.CaptureScreenshotFormat, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", "":
		return page.CaptureScreenshotFormatPng, nil
	case ".jpg", ".jpeg":
		return page.CaptureScreenshotFormatJpeg, nil
	case ".webp":
		return page.CaptureScreenshotFormatWebp, nil
	}
	return "", fmt.Errorf("cannot write %s: use a .png, .jpg, .jpeg or .webp path", filepath.Base(path))
}

func runScreenshot(ctx context.Context, c *Call) (string, error) {
	r, err := parseScreenshot(c.Args, c.Flags)
	if err != nil {
		return "", err
	}
	opts := browser.ShotOptions{Mode: browser.ShotFullPage, Format: page.CaptureScreenshotFormatPng}
	if !r.fullRes {
		opts.MaxSide = browser.MaxImageSide
	}
	// The path is checked before any work: a refused path fails at once.
	path := ""
	if !r.base64 {
		if path, err = outputPath(c, r.path, "browse-screenshot.png"); err != nil {
			return "", err
		}
		opts.Format, _ = imageFormat(path) // parseScreenshot vetted the extension
	}
	var t *target
	switch {
	case r.selector != "":
		if t, err = resolveElement(ctx, c, r.selector); err != nil {
			return "", err
		}
		defer t.el.Release()
		opts.Mode, opts.Element = browser.ShotElement, t.el
	case r.clip != nil:
		opts.Mode, opts.Region = browser.ShotRegion, *r.clip
	case r.viewport:
		opts.Mode = browser.ShotViewport
	}
	shot, err := c.Tab.Capture(ctx, opts)
	switch {
	case errors.Is(err, browser.ErrOutsideViewport):
		return "", Errorf("Clip coordinates are relative to the viewport's top left; run 'viewport' to see its size.", "Cannot clip: %v.", err)
	case err != nil && t != nil:
		return "", actionError(t, err)
	case err != nil:
		return "", pageError(err)
	case r.base64:
		return "data:image/" + string(opts.Format) + ";base64," + base64.StdEncoding.EncodeToString(shot.Data), nil
	}
	if err := writeOutput(path, shot.Data); err != nil {
		return "", err
	}
	return "Screenshot saved: " + path + " " + shotSummary(shot), nil
}

// shotSummary is "(1280x720 px, 45.2KB)" plus what was done to fit the
// image, so an agent knows what it is looking at.
func shotSummary(s *browser.Shot) string {
	out := fmt.Sprintf("(%dx%d px, %s)", s.Width, s.Height, browser.HumanBytes(int64(len(s.Data))))
	if s.Scaled < 1 {
		out += fmt.Sprintf("\nNote: scaled to %.0f%% so no side exceeds %d px (vision APIs reject larger images); add --full-resolution to keep every pixel.",
			s.Scaled*100, browser.MaxImageSide)
	}
	if s.CutFrom > 0 {
		out += fmt.Sprintf("\nNote: the page is %d px tall; this shows the top %d px. Scroll and use --viewport, or --clip, for the rest.",
			int(s.CutFrom), browser.MaxFullPageHeight)
	}
	return out
}

// responsiveSizes are the reference's three breakpoints, in order.
var responsiveSizes = []struct {
	name          string
	width, height int
}{
	{"mobile", 375, 812},
	{"tablet", 768, 1024},
	{"desktop", 1280, 720},
}

func runResponsive(ctx context.Context, c *Call) (out string, err error) {
	prefix := filepath.Join(os.TempDir(), "browse-responsive")
	if len(c.Args) == 1 {
		prefix = c.Args[0]
		if info, err := os.Stat(prefix); strings.HasSuffix(prefix, "/") || err == nil && info.IsDir() {
			prefix = filepath.Join(prefix, "responsive") // a directory: name the files in it
		}
		if _, err := imageFormat(prefix); err == nil && filepath.Ext(prefix) != "" {
			prefix = strings.TrimSuffix(prefix, filepath.Ext(prefix)) // "shots.png" → shots-mobile.png
		}
	}
	paths := make([]string, len(responsiveSizes))
	for i, s := range responsiveSizes {
		p, err := outputPath(c, prefix+"-"+s.name+".png", "")
		if err != nil {
			return "", err
		}
		paths[i] = p
	}
	before, had := c.Tab.ViewportOverride()
	current, err := c.Tab.CurrentViewport(ctx)
	if err != nil {
		return "", pageError(err)
	}
	// Whatever happens, the tab gets its own viewport back.
	defer browser.Afterward(func(ctx context.Context) {
		if rerr := c.Tab.RestoreViewport(ctx, before, had); rerr != nil && err == nil {
			out += fmt.Sprintf("\nWarning: the viewport could not be restored (%v); run 'viewport %dx%d --scale %g'.", rerr, current.Width, current.Height, current.Scale)
		}
	})
	var lines []string
	for i, s := range responsiveSizes {
		if err := c.Tab.SetViewport(ctx, browser.Viewport{Width: s.width, Height: s.height, Scale: current.Scale}); err != nil {
			return "", pageError(err)
		}
		shot, err := c.Tab.Capture(ctx, browser.ShotOptions{Mode: browser.ShotViewport, Format: page.CaptureScreenshotFormatPng, MaxSide: browser.MaxImageSide})
		if err != nil {
			return "", pageError(err)
		}
		if err := writeOutput(paths[i], shot.Data); err != nil {
			return "", err
		}
		lines = append(lines, fmt.Sprintf("%-7s %dx%d → %s %s", s.name, s.width, s.height, paths[i], shotSummary(shot)))
	}
	return strings.Join(lines, "\n"), nil
}
