package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/browsehq/browse/internal/browser"
)

// scrapeItem is one media URL the page lists, and what became of it.
type scrapeItem struct {
	URL    string `json:"url"`
	File   string `json:"file,omitempty"`
	Bytes  int64  `json:"bytes"`
	Type   string `json:"type,omitempty"`
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
}

func runScrape(ctx context.Context, c *Call) (string, error) {
	cmd := mustLookup("scrape")
	kind := c.Args[0]
	if kind != "images" && kind != "videos" && kind != "media" {
		return "", UsageError(cmd, "Scrape images, videos or media, not %q.", kind)
	}
	limit, err := scrapeLimit(c)
	if err != nil {
		return "", err
	}
	dir, made, err := scrapeDir(c)
	if err != nil {
		return "", err
	}
	found, err := collectMedia(ctx, c, kind, c.Flags["--selector"])
	if err != nil {
		return "", err
	}
	if len(found) == 0 {
		return fmt.Sprintf("Found no %s on the page; nothing was written.", kind), nil
	}
	urls := found
	if len(urls) > limit {
		urls = urls[:limit]
	}
	if made {
		if dir, err = os.MkdirTemp(dir, "browse-scrape-"); err != nil {
			return "", Errorf("Check the temp directory.", "Cannot create a directory for the files: %v.", err)
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", Errorf("Check the path.", "Cannot create %s: %v.", dir, err)
	}
	items := downloadAll(ctx, c, urls, dir)
	if err := writeManifest(dir, items); err != nil {
		return "", err
	}
	summary, saved := scrapeSummary(items, len(found), limit, dir)
	if saved == 0 {
		return "", &Error{Status: 502, Msg: summary, Hint: "Every download failed; manifest.json has each error. Check the page's URLs with 'media'."}
	}
	return summary, nil
}

func scrapeLimit(c *Call) (int, error) {
	v, ok := c.Flags["--limit"]
	if !ok {
		return defaultScrapeLimit, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxScrapeLimit {
		return 0, UsageError(mustLookup("scrape"), "--limit takes a number from 1 to %d, not %q.", maxScrapeLimit, v)
	}
	return n, nil
}

// scrapeDir is --dir, checked, or the temp dir in which a fresh directory
// is made (made is true) once there is something to write.
func scrapeDir(c *Call) (dir string, made bool, err error) {
	dir, given := c.Flags["--dir"]
	if !given {
		dir = os.TempDir()
	}
	checked, err := checkOutputPath(c, dir)
	if err != nil {
		return "", false, err
	}
	if info, err := os.Stat(checked); err == nil && !info.IsDir() {
		return "", false, Errorf("Give a directory for --dir.", "%s is a file, not a directory.", dir)
	}
	return checked, !given, nil
}

// collectMediaJS lists media URLs, deduplicated, in page order: images
// (their largest srcset candidate, else what they show) and video posters;
// videos and audio with their <source> children.
const collectMediaJS = `(scope, kind) => {
	const roots = scope ? [...document.querySelectorAll(scope)] : [document];
	const within = sel => {
		const found = new Set();
		for (const r of roots) {
			if (r.matches && r.matches(sel)) found.add(r);
			for (const el of r.querySelectorAll(sel)) found.add(el);
		}
		return [...found];
	};
	const largest = srcset => {
		let best = '', score = -1;
		for (const part of srcset.split(/,\s+/)) {
			const [u, d = '1x'] = part.trim().split(/\s+/);
			const n = parseFloat(d) || 1;
			if (u && n > score) { best = u; score = n; }
		}
		return best;
	};
	const out = [], seen = new Set();
	const add = u => {
		if (!u) return;
		let abs;
		try { abs = new URL(u, document.baseURI).href } catch (e) { return }
		if (abs.startsWith('blob:') || seen.has(abs)) return;
		seen.add(abs);
		out.push(abs);
	};
	if (kind !== 'videos') {
		for (const img of within('img')) add((img.srcset && largest(img.srcset)) || img.currentSrc || img.src);
		for (const v of within('video[poster]')) add(v.poster);
	}
	if (kind !== 'images') {
		for (const m of within('video, audio')) {
			add(m.currentSrc || m.src);
			for (const s of m.querySelectorAll('source[src]')) add(s.src);
		}
	}
	return JSON.stringify(out);
}`

func collectMedia(ctx context.Context, c *Call, kind, scope string) ([]string, error) {
	args, _ := json.Marshal([]string{scope, kind})
	expr := "(" + collectMediaJS + ")(..." + string(args) + ")"
	obj, err := c.Tab.EvaluateIn(ctx, c.Tab.CurrentFrame(), expr)
	if err != nil {
		var je *browser.JSError
		if scope != "" && errors.As(err, &je) {
			return nil, Errorf("Check the syntax, or leave --selector out.", "%q is not a valid CSS selector.", scope)
		}
		return nil, pageError(err)
	}
	var urls []string
	if err := json.Unmarshal([]byte(browser.String(obj)), &urls); err != nil {
		return nil, pageError(fmt.Errorf("reading the page's media list: %w", err))
	}
	return urls, nil
}

// downloadAll fetches urls into dir, a few at a time. Each file succeeds or
// fails on its own; failures are recorded, never fatal.
func downloadAll(ctx context.Context, c *Call, urls []string, dir string) []scrapeItem {
	items := make([]scrapeItem, len(urls))
	f, ferr := newFetcher(ctx, c)
	turns := make(chan struct{}, scrapeParallel)
	var wg sync.WaitGroup
	for i, u := range urls {
		items[i].URL = u
		if ferr != nil {
			items[i].Error = errorText(ferr)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			turns <- struct{}{}
			defer func() { <-turns }()
			items[i] = scrapeOne(ctx, c, f, u, dir, fmt.Sprintf("%03d-", i+1))
		}()
	}
	wg.Wait()
	return items
}

func scrapeOne(ctx context.Context, c *Call, f *fetcher, u, dir, prefix string) scrapeItem {
	item := scrapeItem{URL: u}
	if ctx.Err() != nil {
		item.Error = "not fetched: the command's deadline passed"
		return item
	}
	var src *source
	var err error
	if strings.HasPrefix(strings.ToLower(u), "data:") {
		src, err = openSource(ctx, c, u, false)
	} else {
		src, err = f.open(ctx, u)
	}
	if err != nil {
		item.Error = scrapeError(u, err)
		return item
	}
	defer src.close()
	saved, n, err := saveStream(destination{dir: dir}, prefix, src)
	if err != nil {
		item.Error = scrapeError(u, err)
		return item
	}
	item.File, item.Bytes, item.Type, item.Status = filepath.Base(saved), n, src.mime, src.status
	return item
}

func errorText(err error) string {
	var ce *Error
	if errors.As(err, &ce) {
		return ce.Msg
	}
	return err.Error()
}

// scrapeError words a failed file for the manifest, where the URL is
// already beside it: "HTTP 404 Not Found".
func scrapeError(u string, err error) string {
	msg := strings.TrimPrefix(errorText(err), "Download of "+shortURL(u)+" failed: ")
	return strings.TrimSuffix(msg, ".")
}

func writeManifest(dir string, items []scrapeItem) error {
	data, err := json.MarshalIndent(items, "", "  ")
	if err != nil {
		return err
	}
	return writeOutput(filepath.Join(dir, "manifest.json"), append(data, '\n'))
}

// scrapeSummary is one line, then a line per failure (at most five), and
// the number of files saved.
func scrapeSummary(items []scrapeItem, found, limit int, dir string) (string, int) {
	ok := 0
	var failures []string
	for _, it := range items {
		if it.Error == "" {
			ok++
		} else if len(failures) < 5 {
			failures = append(failures, "  failed: "+shortURL(it.URL)+": "+it.Error)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Scraped %d of %d files to %s (manifest.json)", ok, len(items), dir)
	if found > limit {
		fmt.Fprintf(&b, "; %d found, --limit %d", found, limit)
	}
	for _, f := range failures {
		b.WriteString("\n" + f)
	}
	if n := len(items) - ok - len(failures); n > 0 {
		fmt.Fprintf(&b, "\n  … and %d more failures (see manifest.json)", n)
	}
	return b.String(), ok
}
