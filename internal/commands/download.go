package commands

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"

	"github.com/browsehq/browse/internal/browser"
)

const (
	maxDownloadBytes   = 200 << 20 // one downloaded file
	maxInlineBytes     = 10 << 20  // --base64 output
	maxRedirects       = 10
	defaultScrapeLimit = 50
	maxScrapeLimit     = 500
	scrapeParallel     = 4
	maxFileNameBytes   = 120
)

// ---- download ----

func runDownload(ctx context.Context, c *Call) (string, error) {
	cmd := mustLookup("download")
	inline := c.Has("--base64")
	if inline && len(c.Args) == 2 {
		return "", UsageError(cmd, "--base64 prints the file instead of writing it, so it takes no path.")
	}
	var dest destination
	if !inline {
		d, err := downloadDestination(c)
		if err != nil {
			return "", err
		}
		dest = d
	}
	raw, err := downloadTarget(ctx, c, c.Args[0])
	if err != nil {
		return "", err
	}
	src, err := openSource(ctx, c, raw, c.Has("--navigate"))
	if err != nil {
		return "", err
	}
	defer src.close()
	if inline {
		return inlineDataURL(src)
	}
	saved, n, err := saveStream(dest, "", src)
	if err != nil {
		return "", err
	}
	line := fmt.Sprintf("Downloaded %s → %s (%s, %s)", shortURL(raw), saved, browser.HumanBytes(n), src.mime)
	if src.suggested && dest.file == "" {
		line += fmt.Sprintf(", saved by the browser under its suggested name %q", src.name)
	} else if src.byBrowser {
		line += ", saved by the browser"
	}
	return line, nil
}

// destination is where a download goes: an exact file, or a directory in
// which the file is named after what the server or URL suggests.
type destination struct {
	file string
	dir  string
}

// downloadDestination reads download's optional path and checks it against
// the safe directories before anything is fetched. An existing directory
// means "name the file in there"; no path means the temp dir.
func downloadDestination(c *Call) (destination, error) {
	p := os.TempDir()
	if len(c.Args) == 2 {
		p = c.Args[1]
	}
	checked, err := checkOutputPath(c, p)
	if err != nil {
		return destination{}, err
	}
	if info, err := os.Stat(checked); (err == nil && info.IsDir()) || len(c.Args) < 2 {
		return destination{dir: checked}, nil
	}
	return destination{file: checked}, nil
}

// downloadTarget turns download's first argument into an absolute URL: a
// URL as given (relative ones resolve against the page), or the source of
// the element a ref or CSS selector names.
func downloadTarget(ctx context.Context, c *Call, arg string) (string, error) {
	if looksLikeURL(arg) {
		return resolveAgainstPage(c, arg)
	}
	t, err := resolve(ctx, c, arg, false)
	if err != nil {
		return "", err
	}
	defer t.el.Release()
	obj, err := t.el.Call(ctx, elementURLJS)
	if err != nil {
		return "", actionError(t, err)
	}
	u := browser.String(obj)
	if u == "" {
		return "", Errorf("Point at an img, video, audio, source, a or link element, or give the URL.",
			"%s has no URL to download (no currentSrc, src, href or poster).", t.label)
	}
	return u, nil
}

// elementURLJS finds the URL an element shows or links to; for a wrapper
// (a figure, a picture) it looks at the first media element inside.
const elementURLJS = `function() {
	const str = v => typeof v === 'string' ? v : (v && typeof v.baseVal === 'string' ? v.baseVal : '');
	const own = el => str(el.currentSrc) || str(el.src) || str(el.href) || str(el.poster);
	let u = own(this);
	if (!u && this.querySelector) {
		const inner = this.querySelector('img, video, audio, source[src]');
		if (inner) u = own(inner);
	}
	if (!u) return '';
	try { return new URL(u, document.baseURI).href } catch (e) { return u }
}`

// looksLikeURL tells a URL argument from a selector: a scheme followed by
// "//" (or data:, about:, blob:, javascript:), a host:port, or a path.
// "img.logo" and "a:hover" are selectors.
func looksLikeURL(s string) bool {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "/"), strings.HasPrefix(s, "./"), strings.HasPrefix(s, "../"):
		return true
	case strings.Contains(s, "://"):
		return true
	}
	scheme := strings.ToLower(schemeOf(s))
	switch scheme {
	case "":
		// "example.com/file.pdf", as goto takes it: a host, then a path. CSS
		// has no '/' outside strings and attribute values.
		host, _, ok := strings.Cut(s, "/")
		return ok && strings.Contains(host, ".") && !strings.ContainsAny(host, "[]()'\" :>+~*,=#")
	case "data", "about", "blob", "javascript", "file", "http", "https":
		return true
	}
	return isPortAfter(s[len(scheme)+1:])
}

func resolveAgainstPage(c *Call, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if !strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, ".") {
		return raw, nil
	}
	base, err := url.Parse(c.Tab.URL())
	if err != nil || base.Scheme == "" || base.Scheme == "about" {
		return "", Errorf("Open the page first, or give a full URL.", "Cannot resolve %q: the page has no URL to resolve it against.", raw)
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return "", Errorf("Check the URL.", "%q is not a valid URL: %v.", raw, err)
	}
	return base.ResolveReference(ref).String(), nil
}

// source is an open download: a response body, a file the browser saved,
// or the bytes of a data: URL.
type source struct {
	io.Reader
	name      string // the name the server or URL suggests (not yet safe)
	mime      string
	status    int  // the HTTP status; 0 when not fetched over HTTP
	byBrowser bool // the browser fetched it (--navigate)
	suggested bool // name is the browser's suggested file name
	closers   []func()
}

func (s *source) close() {
	for _, f := range s.closers {
		f()
	}
}

// openSource starts reading raw: decoded in place for data: URLs, fetched
// by the browser itself with navigate, else fetched here with its cookies.
func openSource(ctx context.Context, c *Call, raw string, navigate bool) (*source, error) {
	if strings.HasPrefix(strings.ToLower(raw), "data:") {
		mt, data, err := parseDataURL(raw)
		if err != nil {
			return nil, Errorf("Check the data: URL.", "Cannot decode %s: %v.", shortURL(raw), err)
		}
		return sniffed(&source{Reader: bytes.NewReader(data), name: "data", mime: mt}), nil
	}
	if navigate {
		return openByBrowser(ctx, c, raw)
	}
	f, err := newFetcher(ctx, c)
	if err != nil {
		return nil, err
	}
	return f.open(ctx, raw)
}

// openByBrowser lets the browser download raw in a hidden page, vetting
// every request (redirect hops included) like goto does.
func openByBrowser(ctx context.Context, c *Call, raw string) (*source, error) {
	u, err := checkFetchURL(c, raw)
	if err != nil {
		return nil, err
	}
	allow := func(next string) error {
		_, err := checkFetchURL(c, next)
		return err
	}
	d, err := c.Browser.DownloadNative(ctx, u, maxDownloadBytes, allow)
	if err != nil {
		return nil, nativeDownloadError(u, err)
	}
	f, err := os.Open(d.Path)
	if err != nil {
		os.RemoveAll(d.Dir)
		return nil, Errorf("Retry the download.", "The browser saved %s but the file cannot be read: %v.", u, err)
	}
	src := &source{Reader: f, name: d.SuggestedName, mime: d.MIME, byBrowser: true, suggested: d.SuggestedName != "",
		closers: []func(){func() { f.Close() }, func() { os.RemoveAll(d.Dir) }}}
	if src.name == "" {
		src.name = nameFromURL(d.URL)
	}
	if src.mime == "" {
		src.mime, _, _ = mime.ParseMediaType(mime.TypeByExtension(filepath.Ext(src.name)))
	}
	return sniffed(src), nil
}

func nativeDownloadError(u string, err error) error {
	var ce *Error
	var ne *browser.NavError
	switch {
	case errors.As(err, &ce):
		return ce
	case errors.As(err, &ne):
		return &Error{Status: 502, Msg: fmt.Sprintf("Download of %s failed: %s.", u, ne.Code), Hint: "Cause: " + browser.NetErrorHint(ne.Code) + "."}
	case errors.Is(err, browser.ErrDownloadTooLarge):
		return &Error{Status: 413, Msg: fmt.Sprintf("Download of %s stopped: it is larger than %s.", u, browser.HumanBytes(maxDownloadBytes)), Hint: "Fetch it outside browse (curl)."}
	case errors.Is(err, browser.ErrDownloadCanceled):
		return &Error{Status: 502, Msg: fmt.Sprintf("The browser canceled the download of %s.", u), Hint: "The server may have closed the connection; retry, or try without --navigate."}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Status: 504, Msg: fmt.Sprintf("Download of %s did not finish in time.", u), Hint: "Retry with a longer --timeout MS."}
	}
	return pageError(err)
}

// checkFetchURL is checkURL, the one validation of URLs the daemon loads,
// narrowed to what a download may fetch: http and https.
func checkFetchURL(c *Call, raw string) (string, error) {
	if strings.HasPrefix(strings.ToLower(raw), "blob:") {
		return "", Errorf("Run 'media' to see the element's other sources, or save what the page shows with 'screenshot'.", "Refusing to download %s: blob: URLs exist only inside the page that made them.", shortURL(raw))
	}
	u, err := checkURL(c, raw)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return "", Errorf("Give an http(s) URL; for a local file, it is already on disk.", "Refusing to download %s: only http and https URLs can be downloaded.", u)
	}
	return u, nil
}

// sniffed fills in a missing or generic MIME type from the first bytes.
func sniffed(s *source) *source {
	if s.mime != "" && s.mime != "application/octet-stream" {
		return s
	}
	br := bufio.NewReaderSize(s.Reader, 512)
	head, _ := br.Peek(512)
	s.Reader = br
	if len(head) > 0 {
		if mt, _, err := mime.ParseMediaType(http.DetectContentType(head)); err == nil {
			s.mime = mt
		}
	}
	if s.mime == "" {
		s.mime = "application/octet-stream"
	}
	return s
}

// ---- fetching with the browser's cookies ----

// fetcher downloads from the daemon as the browser would: its User-Agent,
// the page as Referer, and the browser's cookies for each URL.
type fetcher struct {
	c         *Call
	userAgent string
	page      *url.URL
}

// downloadClient follows no redirects by itself: each hop is vetted and
// given its own cookies in fetcher.get.
var downloadClient = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

func newFetcher(ctx context.Context, c *Call) (*fetcher, error) {
	ua, err := c.Browser.EffectiveUserAgent(ctx) // the useragent override, if set
	if err != nil {
		return nil, pageError(err)
	}
	f := &fetcher{c: c, userAgent: ua}
	if p, err := url.Parse(c.Tab.URL()); err == nil && (p.Scheme == "http" || p.Scheme == "https") {
		f.page = p
	}
	return f, nil
}

// open fetches raw, following redirects one hop at a time, and fails on a
// non-2xx answer.
func (f *fetcher) open(ctx context.Context, raw string) (*source, error) {
	resp, err := f.get(ctx, raw)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		return nil, httpStatusError(shortURL(raw), resp)
	}
	if resp.ContentLength > maxDownloadBytes {
		resp.Body.Close()
		return nil, tooLargeError(raw, maxDownloadBytes)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	src := &source{Reader: resp.Body, name: nameFromResponse(resp), mime: mt, status: resp.StatusCode,
		closers: []func(){func() { resp.Body.Close() }}}
	return sniffed(src), nil
}

func (f *fetcher) get(ctx context.Context, raw string) (*http.Response, error) {
	// Cookies set by redirect hops live here for the later hops; the
	// browser's own cookie store is left as it is.
	jar, _ := cookiejar.New(nil)
	next := raw
	for hop := 0; ; hop++ {
		u, err := checkFetchURL(f.c, next)
		if err != nil {
			return nil, err
		}
		req, err := f.request(ctx, u, jar)
		if err != nil {
			return nil, err
		}
		resp, err := downloadClient.Do(req)
		if err != nil {
			return nil, fetchError(u, err)
		}
		jar.SetCookies(resp.Request.URL, resp.Cookies())
		loc := resp.Header.Get("Location")
		if !isRedirect(resp.StatusCode) || loc == "" {
			return resp, nil
		}
		resp.Body.Close()
		if hop == maxRedirects {
			return nil, Errorf("Open the URL with 'goto' to see where it leads.", "Download of %s failed: more than %d redirects.", shortURL(raw), maxRedirects)
		}
		target, err := resp.Request.URL.Parse(loc)
		if err != nil {
			return nil, Errorf("The server sent a broken redirect; try --navigate.", "Download of %s failed: bad redirect to %q.", shortURL(raw), loc)
		}
		next = target.String()
	}
}

func (f *fetcher) request(ctx context.Context, u string, jar http.CookieJar) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, Errorf("Check the URL.", "Cannot request %s: %v.", u, err)
	}
	req.Header.Set("User-Agent", f.userAgent)
	req.Header.Set("Accept", "*/*")
	if ref := refererFor(f.page, req.URL); ref != "" {
		req.Header.Set("Referer", ref)
	}
	cookie, err := f.cookieHeader(ctx, req.URL, jar)
	if err != nil {
		return nil, err
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	return req, nil
}

// cookieHeader is the Cookie header the browser would send to u, with any
// cookie a redirect hop set taking precedence. Values are never logged.
func (f *fetcher) cookieHeader(ctx context.Context, u *url.URL, jar http.CookieJar) (string, error) {
	res, err := cdproto.Call(ctx, f.c.Tab.Session, network.GetCookies, network.GetCookiesParams{URLs: []string{u.String()}})
	if err != nil {
		return "", pageError(err)
	}
	var parts []string
	fresh := map[string]bool{}
	for _, ck := range jar.Cookies(u) {
		fresh[ck.Name] = true
		parts = append(parts, ck.Name+"="+ck.Value)
	}
	for _, ck := range res.Cookies {
		if !fresh[ck.Name] {
			parts = append(parts, ck.Name+"="+ck.Value)
		}
	}
	return strings.Join(parts, "; "), nil
}

// refererFor follows the browser's default policy
// (strict-origin-when-cross-origin): the full page URL to its own origin,
// only the origin elsewhere, nothing from https to http.
func refererFor(page, target *url.URL) string {
	if page == nil || (page.Scheme == "https" && target.Scheme == "http") {
		return ""
	}
	if page.Scheme == target.Scheme && page.Host == target.Host {
		p := *page
		p.Fragment, p.User = "", nil
		return p.String()
	}
	return page.Scheme + "://" + page.Host + "/"
}

func isRedirect(code int) bool {
	switch code {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

func fetchError(u string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Status: 504, Msg: fmt.Sprintf("Download of %s did not finish in time.", shortURL(u)), Hint: "Retry with a longer --timeout MS."}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &Error{Status: 502, Msg: fmt.Sprintf("Download of %s failed: %v.", shortURL(u), err),
		Hint: "Check the URL and that the server is reachable from this machine."}
}

func httpStatusError(u string, resp *http.Response) error {
	hint := "Retry, or try --navigate to let the browser download it."
	switch {
	case resp.StatusCode == 401 || resp.StatusCode == 403:
		hint = "The server refused: log in with this browser first (downloads send its cookies), or try --navigate."
	case resp.StatusCode == 404 || resp.StatusCode == 410:
		hint = "Check the URL: 'media' and 'links' list the page's URLs."
	}
	return &Error{Status: 502, Msg: fmt.Sprintf("Download of %s failed: HTTP %s.", u, resp.Status), Hint: hint}
}

func tooLargeError(u string, limit int64) error {
	return &Error{Status: 413, Msg: fmt.Sprintf("Download of %s is larger than %s.", shortURL(u), browser.HumanBytes(limit)),
		Hint: "Fetch it outside browse (curl), or pick a smaller file."}
}

// ---- writing ----

// saveStream copies src into a temp file beside the destination, then
// renames it into place, so a failed or oversized download leaves nothing
// behind. In a directory the file is named after src.name (made safe,
// prefixed, and made unique); an exact destination is overwritten.
func saveStream(dest destination, prefix string, src *source) (string, int64, error) {
	dir := dest.dir
	if dest.file != "" {
		dir = filepath.Dir(dest.file)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", 0, Errorf("Check the directory.", "Cannot create %s: %v.", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".browse-partial-*")
	if err != nil {
		return "", 0, Errorf("Check the directory's permissions.", "Cannot write in %s: %v.", dir, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	n, err := io.Copy(tmp, io.LimitReader(src, maxDownloadBytes+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "", 0, &Error{Status: 504, Msg: "The download did not finish in time.", Hint: "Retry with a longer --timeout MS."}
	case err != nil:
		return "", 0, Errorf("Retry the download.", "The download broke off after %s: %v.", browser.HumanBytes(n), err)
	case n > maxDownloadBytes:
		return "", 0, &Error{Status: 413, Msg: fmt.Sprintf("The download is larger than %s; nothing was written.", browser.HumanBytes(maxDownloadBytes)), Hint: "Fetch it outside browse (curl)."}
	}
	final := dest.file
	if final == "" {
		name := prefix + withExtension(SafeFileName(src.name), src.mime)
		final = uniquePath(filepath.Join(dir, name))
	}
	os.Chmod(tmp.Name(), 0o644)
	if err := os.Rename(tmp.Name(), final); err != nil {
		return "", 0, Errorf("Check the path.", "Cannot write %s: %v.", final, err)
	}
	return final, n, nil
}

// uniquePath adds -1, -2… before the extension until p names no file.
func uniquePath(p string) string {
	ext := filepath.Ext(p)
	stem := strings.TrimSuffix(p, ext)
	for i := 1; ; i++ {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p
		}
		p = fmt.Sprintf("%s-%d%s", stem, i, ext)
	}
}

// inlineDataURL reads a capped amount of src and prints it as a data: URL.
func inlineDataURL(src *source) (string, error) {
	data, err := io.ReadAll(io.LimitReader(src, maxInlineBytes+1))
	if err != nil {
		return "", Errorf("Retry the download.", "The download broke off: %v.", err)
	}
	if len(data) > maxInlineBytes {
		return "", &Error{Status: 413, Msg: fmt.Sprintf("The file is larger than %s, too big for --base64.", browser.HumanBytes(maxInlineBytes)),
			Hint: "Drop --base64 to save it to a file instead."}
	}
	return "data:" + src.mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

// ---- names ----

// nameFromResponse is the file name the server suggests
// (Content-Disposition), else the last segment of the final URL.
func nameFromResponse(resp *http.Response) string {
	if cd := resp.Header.Get("Content-Disposition"); cd != "" {
		if _, params, err := mime.ParseMediaType(cd); err == nil && params["filename"] != "" {
			return params["filename"]
		}
	}
	return nameFromURL(resp.Request.URL.String())
}

func nameFromURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return path.Base(u.Path)
}

// SafeFileName makes a name a server or URL suggests safe to create in a
// directory: its last path element only, no control or reserved
// characters, no leading or trailing dots or spaces, no "..", at most
// maxFileNameBytes bytes (the extension kept), and never empty.
func SafeFileName(name string) string {
	name = strings.ToValidUTF8(name, "")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.In(r, unicode.Cc, unicode.Cf), r == utf8.RuneError:
			return -1
		case strings.ContainsRune(`<>:"|?*`, r):
			return '_'
		}
		return r
	}, name)
	for strings.Contains(name, "..") {
		name = strings.ReplaceAll(name, "..", ".")
	}
	name = strings.Trim(name, ". ")
	if len(name) > maxFileNameBytes {
		ext := filepath.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		name = strings.TrimRight(truncateUTF8(strings.TrimSuffix(name, ext), maxFileNameBytes-len(ext)), ". ") + ext
	}
	if name == "" || strings.Trim(name, ".") == "" {
		return "download"
	}
	return name
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// withExtension adds the usual extension for mt when name has none.
func withExtension(name, mt string) string {
	if filepath.Ext(name) != "" {
		return name
	}
	if ext := commonExtensions[mt]; ext != "" {
		return name + ext
	}
	return name
}

var commonExtensions = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp", "image/avif": ".avif",
	"image/svg+xml": ".svg", "image/x-icon": ".ico", "image/bmp": ".bmp",
	"video/mp4": ".mp4", "video/webm": ".webm", "video/ogg": ".ogv", "audio/mpeg": ".mp3", "audio/ogg": ".ogg",
	"audio/wav": ".wav", "audio/webm": ".weba", "application/pdf": ".pdf", "application/json": ".json",
	"application/zip": ".zip", "text/html": ".html", "text/plain": ".txt", "text/csv": ".csv",
}

// parseDataURL decodes data:[<type>][;params][;base64],<payload>.
func parseDataURL(s string) (mimeType string, data []byte, err error) {
	if len(s) < 5 || !strings.EqualFold(s[:5], "data:") {
		return "", nil, errors.New("not a data: URL")
	}
	meta, payload, ok := strings.Cut(s[5:], ",")
	if !ok {
		return "", nil, errors.New("no comma before the data")
	}
	isBase64 := false
	if strings.HasSuffix(strings.ToLower(meta), ";base64") {
		isBase64, meta = true, meta[:len(meta)-len(";base64")]
	}
	mimeType, _, _ = strings.Cut(strings.TrimSpace(meta), ";")
	mimeType = strings.ToLower(mimeType)
	if mimeType == "" || !strings.Contains(mimeType, "/") {
		mimeType = "text/plain"
	}
	text, err := url.PathUnescape(payload)
	if err != nil {
		return "", nil, fmt.Errorf("bad percent-encoding")
	}
	if !isBase64 {
		return mimeType, []byte(text), nil
	}
	text = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, text)
	data, err = base64.StdEncoding.DecodeString(text)
	if err != nil {
		data, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(text, "="))
	}
	if err != nil {
		return "", nil, fmt.Errorf("bad base64")
	}
	return mimeType, data, nil
}

// shortURL keeps long data: URLs out of messages.
func shortURL(u string) string {
	if len(u) > 200 || strings.HasPrefix(strings.ToLower(u), "data:") && len(u) > 48 {
		return truncateUTF8(u, 40) + "…"
	}
	return u
}
