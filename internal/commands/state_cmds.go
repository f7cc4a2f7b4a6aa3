package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"

	"github.com/browsehq/browse/internal/browser"
)

// The page-state commands: cookies, storage, request headers and the user
// agent. Saved state (state save|load) is in savedstate.go.
//
// Secrets stay out of every output: cookie values are truncated, values of
// sensitive headers and storage keys are redacted, and none is logged.

// ---- cookies ----

func runCookies(ctx context.Context, c *Call) (string, error) {
	cookies, err := c.Browser.Cookies(ctx)
	if err != nil {
		return "", pageError(err)
	}
	sort.SliceStable(cookies, func(i, j int) bool {
		if cookies[i].Domain != cookies[j].Domain {
			return cookies[i].Domain < cookies[j].Domain
		}
		return cookies[i].Name < cookies[j].Name
	})
	out := make([]ImportedCookie, 0, len(cookies))
	for _, ck := range cookies {
		view := cookieRecord(ck)
		view.Value = TruncateValue(view.Value)
		if view.SameSite == "" {
			view.SameSite = "Lax" // Chromium's default for a cookie that names none
		}
		out = append(out, view)
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	return string(data), nil
}

// TruncateValue shows enough of a secret to tell values apart, never the
// whole: the first 4 characters of a value longer than 8, then its length.
// Shorter values show only their length.
func TruncateValue(v string) string {
	n := utf8.RuneCountInString(v)
	switch {
	case n == 0:
		return ""
	case n <= 8:
		return fmt.Sprintf("…(%d chars)", n)
	}
	head := []rune(v)[:4]
	return fmt.Sprintf("%s…(%d chars)", string(head), n)
}

func runCookie(ctx context.Context, c *Call) (string, error) {
	cmd := mustLookup("cookie")
	name, value, ok := strings.Cut(c.Args[0], "=")
	if !ok || name == "" {
		return "", UsageError(cmd, "Expected <name>=<value>, got %q.", TruncateValue(c.Args[0]))
	}
	if err := checkCookieText("name", name, true); err != nil {
		return "", UsageError(cmd, "%v.", err)
	}
	if err := checkCookieText("value", value, false); err != nil {
		return "", UsageError(cmd, "%v.", err)
	}
	page, err := url.Parse(c.Tab.URL())
	if err != nil || (page.Scheme != "http" && page.Scheme != "https") || page.Host == "" {
		return "", Errorf("Run 'goto <url>' first: a cookie belongs to the page's domain.",
			"The current page (%s) has no domain to set a cookie for.", c.Tab.URL())
	}
	origin := page.Scheme + "://" + page.Host + "/"
	err = c.Browser.SetCookies(ctx, []*network.CookieParam{{Name: name, Value: value, URL: origin, Path: "/"}})
	if err != nil {
		return "", Errorf("Check the cookie's name and value.", "The browser refused the cookie %q: %v.", name, err)
	}
	return fmt.Sprintf("Set cookie %q for %s (path /, value %s)", name, page.Hostname(), TruncateValue(value)), nil
}

// ImportedCookie is one cookie from a cookie-import file (or a saved
// state), validated and normalised whatever the file's shape.
type ImportedCookie struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Domain is ".example.com" for a cookie of the domain and its
	// subdomains, "example.com" for a host-only cookie (Playwright's and
	// Chromium's convention).
	Domain string `json:"domain"`
	Path   string `json:"path"`
	// Expires is in seconds since the epoch; -1 marks a session cookie.
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	// SameSite is "Strict", "Lax", "None", or "" for the browser's default.
	SameSite string `json:"sameSite,omitempty"`
}

// cookieRecord is a browser cookie in the shape 'cookies' prints and
// 'state save' writes.
func cookieRecord(ck *network.Cookie) ImportedCookie {
	return ImportedCookie{Name: ck.Name, Value: ck.Value, Domain: ck.Domain, Path: ck.Path,
		Expires: ck.Expires, HTTPOnly: ck.HTTPOnly, Secure: ck.Secure, SameSite: string(ck.SameSite)}
}

// OriginStorage is one origin's localStorage, as in Playwright's storage
// state.
type OriginStorage struct {
	Origin       string        `json:"origin"`
	LocalStorage []StorageItem `json:"localStorage"`
}

// StorageItem is one localStorage entry.
type StorageItem struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// rawCookie is a cookie object in any of the accepted shapes: Playwright's
// (expires), and Chrome DevTools' or cookie-editor exports (expirationDate,
// hostOnly, session, lower-case sameSite values). Unknown fields are ignored.
type rawCookie struct {
	Name           *string  `json:"name"`
	Value          *string  `json:"value"`
	Domain         string   `json:"domain"`
	Path           string   `json:"path"`
	URL            string   `json:"url"`
	Expires        *float64 `json:"expires"`
	ExpirationDate *float64 `json:"expirationDate"`
	HostOnly       bool     `json:"hostOnly"`
	HTTPOnly       bool     `json:"httpOnly"`
	Secure         bool     `json:"secure"`
	Session        bool     `json:"session"`
	SameSite       *string  `json:"sameSite"`
}

// maxImportCookies bounds one import (Chromium keeps about 3,000 at most).
const maxImportCookies = 10_000

// ParseCookieImport reads a cookie file: an array of cookie objects
// (Playwright's or Chrome DevTools' export), or Playwright's storage state
// {"cookies": [...], "origins": [...]}. Every cookie is checked; the first
// problem is the error and nothing is returned. A file without cookies is
// an error.
func ParseCookieImport(data []byte) ([]ImportedCookie, error) {
	cookies, _, err := parseCookieFile(data)
	if err != nil {
		return nil, err
	}
	if len(cookies) == 0 {
		return nil, errors.New("the file holds no cookies")
	}
	return cookies, nil
}

// parseCookieFile is ParseCookieImport that also returns a storage state's
// origins, and accepts an empty cookie list.
func parseCookieFile(data []byte) ([]ImportedCookie, []OriginStorage, error) {
	data = bytes.TrimSpace(data)
	var raws []rawCookie
	var origins []OriginStorage
	switch {
	case len(data) == 0:
		return nil, nil, errors.New("the file is empty")
	case data[0] == '[':
		if err := strictUnmarshal(data, &raws); err != nil {
			return nil, nil, fmt.Errorf("not a JSON array of cookie objects: %v", err)
		}
	case data[0] == '{':
		var st struct {
			Cookies *[]rawCookie    `json:"cookies"`
			Origins []OriginStorage `json:"origins"`
		}
		if err := strictUnmarshal(data, &st); err != nil {
			return nil, nil, fmt.Errorf("not a storage state ({\"cookies\": [...]}): %v", err)
		}
		if st.Cookies == nil {
			return nil, nil, errors.New(`a JSON object without a "cookies" array (expected an array of cookies, or a storage state {"cookies": [...], "origins": [...]})`)
		}
		raws = *st.Cookies
		for i, o := range st.Origins {
			origin, err := checkOrigin(o.Origin)
			if err != nil {
				return nil, nil, fmt.Errorf("origin %d: %v", i+1, err)
			}
			o.Origin = origin
			origins = append(origins, o)
		}
	default:
		return nil, nil, errors.New("not JSON: expected an array of cookies, or a storage state {\"cookies\": [...]}")
	}
	if len(raws) > maxImportCookies {
		return nil, nil, fmt.Errorf("%d cookies, over the limit of %d", len(raws), maxImportCookies)
	}
	cookies := make([]ImportedCookie, 0, len(raws))
	for i, r := range raws {
		ck, err := r.normalise()
		if err != nil {
			label := fmt.Sprintf("cookie %d", i+1)
			if r.Name != nil && *r.Name != "" && utf8.ValidString(*r.Name) && len(*r.Name) <= 64 {
				label += fmt.Sprintf(" (%q)", *r.Name)
			}
			return nil, nil, fmt.Errorf("%s: %v", label, err)
		}
		cookies = append(cookies, ck)
	}
	return cookies, origins, nil
}

// strictUnmarshal decodes one JSON value and refuses anything after it.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return nil
}

func (r rawCookie) normalise() (ImportedCookie, error) {
	var ck ImportedCookie
	if r.Name == nil || *r.Name == "" {
		return ck, errors.New(`no "name"`)
	}
	if r.Value == nil {
		return ck, errors.New(`no "value"`)
	}
	ck.Name, ck.Value = *r.Name, *r.Value
	if err := checkCookieText("name", ck.Name, true); err != nil {
		return ck, err
	}
	if err := checkCookieText("value", ck.Value, false); err != nil {
		return ck, err
	}
	if len(ck.Name)+len(ck.Value) > 4096 {
		return ck, errors.New("name and value are over 4096 bytes together")
	}
	ck.Path = r.Path
	if ck.Path == "" {
		ck.Path = "/"
	}
	if ck.Path[0] != '/' || strings.ContainsAny(ck.Path, ";") || hasControl(ck.Path) {
		return ck, fmt.Errorf("path %q must start with / and hold no ';' or control characters", ck.Path)
	}
	ck.Domain = r.Domain
	if ck.Domain == "" && r.URL != "" {
		// Playwright lets a cookie name a URL instead: a host-only cookie.
		u, err := url.Parse(r.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
			return ck, fmt.Errorf("url %q is not an http(s) URL", r.URL)
		}
		ck.Domain = u.Hostname()
		if r.Path == "" && u.Path != "" {
			ck.Path = u.Path
		}
	}
	if ck.Domain == "" {
		return ck, errors.New(`no "domain" (or "url")`)
	}
	host := strings.TrimPrefix(ck.Domain, ".")
	if !validHost(host) {
		return ck, fmt.Errorf("domain %q is not a host name", ck.Domain)
	}
	if r.HostOnly {
		ck.Domain = host // DevTools marks host-only cookies instead of dropping the dot
	}
	ck.HTTPOnly, ck.Secure = r.HTTPOnly, r.Secure
	ck.Expires = -1
	exp := r.Expires
	if exp == nil {
		exp = r.ExpirationDate
	}
	if exp != nil && !r.Session && *exp > 0 && !math.IsInf(*exp, 0) {
		ck.Expires = *exp
	}
	if r.SameSite != nil {
		switch strings.ToLower(*r.SameSite) {
		case "strict":
			ck.SameSite = "Strict"
		case "lax":
			ck.SameSite = "Lax"
		case "none", "no_restriction":
			ck.SameSite = "None"
		case "", "unspecified":
		default:
			return ck, fmt.Errorf("sameSite %q is not Strict, Lax, None, no_restriction or unspecified", *r.SameSite)
		}
	}
	if ck.SameSite == "None" && !ck.Secure {
		return ck, errors.New("sameSite None needs secure: true (Chromium refuses it otherwise)")
	}
	return ck, nil
}

// checkCookieText refuses what no browser stores in a cookie's name or
// value: control characters and ';' (and '=' in a name).
func checkCookieText(what, s string, isName bool) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("the %s is not valid UTF-8", what)
	}
	if hasControl(s) || strings.Contains(s, ";") || (isName && strings.ContainsAny(s, "= \t")) {
		if isName {
			return fmt.Errorf("the %s holds a control character, a space, ';' or '='", what)
		}
		return fmt.Errorf("the %s holds a control character or ';'", what)
	}
	return nil
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// validHost accepts DNS names, IPv4 addresses and bracketed IPv6.
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	if h[0] == '[' && h[len(h)-1] == ']' {
		h = h[1 : len(h)-1]
		return h != "" && strings.Trim(h, "0123456789abcdefABCDEF:.") == ""
	}
	for i := 0; i < len(h); i++ {
		ch := h[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '-' || ch == '_') {
			return false
		}
	}
	return true
}

// checkOrigin accepts "scheme://host[:port]" for http(s), and returns it
// in that form (a trailing slash dropped).
func checkOrigin(o string) (string, error) {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !validHost(u.Hostname()) ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%q is not an http(s) origin (scheme://host[:port])", o)
	}
	return u.Scheme + "://" + u.Host, nil
}

// param is the cookie as the browser takes it.
func (ck ImportedCookie) param() *network.CookieParam {
	p := &network.CookieParam{Name: ck.Name, Value: ck.Value, Path: ck.Path,
		Secure: ck.Secure, HTTPOnly: ck.HTTPOnly, SameSite: network.CookieSameSite(ck.SameSite)}
	if strings.HasPrefix(ck.Domain, ".") {
		p.Domain = ck.Domain
	} else {
		// A host-only cookie is set through a URL: given a domain, Chromium
		// would make it a cookie of the subdomains too.
		scheme := "http://"
		if ck.Secure {
			scheme = "https://"
		}
		p.URL = scheme + ck.Domain + ck.Path
	}
	if ck.Expires > 0 {
		p.Expires = cdproto.TimeSinceEpoch(ck.Expires)
	}
	return p
}

// setImported sets parsed cookies in one browser call and counts their
// domains.
func setImported(ctx context.Context, b *browser.Browser, cookies []ImportedCookie) (domains int, err error) {
	params := make([]*network.CookieParam, len(cookies))
	seen := map[string]bool{}
	for i, ck := range cookies {
		params[i] = ck.param()
		seen[strings.TrimPrefix(ck.Domain, ".")] = true
	}
	if err := b.SetCookies(ctx, params); err != nil {
		return 0, err
	}
	return len(seen), nil
}

// maxCookieFileBytes caps a cookie-import file or a saved state.
const maxCookieFileBytes = 20 << 20

func runCookieImport(ctx context.Context, c *Call) (string, error) {
	data, err := readCheckedFile(c, c.Args[0], maxCookieFileBytes, "Split the file.")
	if err != nil {
		return "", err
	}
	cookies, origins, err := parseCookieFile(data)
	if err == nil && len(cookies) == 0 && len(origins) == 0 {
		err = errors.New("the file holds no cookies")
	}
	if err != nil {
		return "", Errorf("Give a JSON array of cookies ({name, value, domain, path, expires, httpOnly, secure, sameSite}), a Playwright storage state, or a Chrome DevTools cookie export. Nothing was imported.",
			"Cannot import %s: %v.", c.Args[0], err)
	}
	domains, err := setImported(ctx, c.Browser, cookies)
	if err != nil {
		return "", Errorf("Check the cookies' domains and flags. Nothing was imported.", "The browser refused the cookies: %v.", err)
	}
	msg := fmt.Sprintf("Imported %d cookies for %d domains", len(cookies), domains)
	if len(origins) > 0 {
		n, skipped, err := restoreLocalStorage(ctx, c.Browser, origins)
		if err != nil {
			return "", Errorf("The cookies were imported; run 'cookie-import' again to retry the localStorage.",
				"%s, but restoring localStorage failed: %v.", msg, err)
		}
		msg += fmt.Sprintf(", and %d localStorage items for %d origins", n, len(origins)-len(skipped))
		if len(skipped) > 0 {
			msg += "\nlocalStorage was not restored for: " + strings.Join(skipped, "; ")
		}
	}
	return msg, nil
}

// ---- storage ----

// storageJS reads both storages of the page; it reports an opaque origin
// (about:blank, data:) instead of throwing.
const storageJS = `(() => {
  const dump = (s) => { const o = {}; for (let i = 0; i < s.length; i++) { const k = s.key(i); o[k] = s.getItem(k); } return o; };
  try { return {origin: location.origin, localStorage: dump(localStorage), sessionStorage: dump(sessionStorage)}; }
  catch (e) { return {origin: location.origin, error: String(e && e.message || e)}; }
})()`

// storageSetJS sets one localStorage item; its arguments are appended as JSON.
const storageSetJS = `((k, v) => {
  try { localStorage.setItem(k, v); return {origin: location.origin}; }
  catch (e) { return {origin: location.origin, error: String(e && e.message || e)}; }
})`

type storageDump struct {
	Origin         string            `json:"origin"`
	Error          string            `json:"error"`
	LocalStorage   map[string]string `json:"localStorage"`
	SessionStorage map[string]string `json:"sessionStorage"`
}

func runStorage(ctx context.Context, c *Call) (string, error) {
	cmd := mustLookup("storage")
	if len(c.Args) > 0 {
		if c.Args[0] != "set" {
			return "", UsageError(cmd, "Unknown storage action %q.", c.Args[0])
		}
		if len(c.Args) != 3 {
			return "", UsageError(cmd, "'storage set' takes a key and a value.")
		}
		return storageSet(ctx, c, c.Args[1], c.Args[2])
	}
	var d storageDump
	if err := evalInto(ctx, c, storageJS, &d); err != nil {
		return "", err
	}
	if d.Error != "" {
		return "", noStorage(c, d)
	}
	for _, m := range []map[string]string{d.LocalStorage, d.SessionStorage} {
		for k, v := range m {
			if SensitiveName(k) {
				m[k] = "[redacted: " + TruncateValue(v) + "]"
			}
		}
	}
	out, _ := json.MarshalIndent(struct {
		LocalStorage   map[string]string `json:"localStorage"`
		SessionStorage map[string]string `json:"sessionStorage"`
	}{d.LocalStorage, d.SessionStorage}, "", "  ")
	return string(out), nil
}

func storageSet(ctx context.Context, c *Call, key, value string) (string, error) {
	args, _ := json.Marshal([]string{key, value})
	expr := storageSetJS + "(..." + string(args) + ")"
	var d storageDump
	if err := evalInto(ctx, c, expr, &d); err != nil {
		return "", err
	}
	if d.Error != "" {
		return "", noStorage(c, d)
	}
	return fmt.Sprintf("Set localStorage %q on %s (%d chars)", key, d.Origin, utf8.RuneCountInString(value)), nil
}

func noStorage(c *Call, d storageDump) error {
	return Errorf("Run 'goto <url>' to an http(s) page first.", "The page (%s) has no storage: %s.", c.Tab.URL(), strings.TrimSuffix(d.Error, "."))
}

// evalInto runs expr in the tab's current frame and decodes its value.
func evalInto(ctx context.Context, c *Call, expr string, v any) error {
	obj, err := c.Tab.EvaluateIn(ctx, c.Tab.CurrentFrame(), expr)
	if err != nil {
		return pageError(err)
	}
	if err := json.Unmarshal(obj.Value, v); err != nil {
		return &Error{Status: 500, Msg: "The page answered with something unexpected: " + err.Error() + ".", Hint: "Run the command again."}
	}
	return nil
}

// ---- header ----

// ParseHeader splits "Name: value" (or "Name:" to clear). The name must be
// an RFC 7230 token; the value may not hold CR, LF or other control
// characters (a tab is allowed). Spaces around the value are dropped.
func ParseHeader(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return "", "", errors.New(`expected <name>:<value> (e.g. "X-Test: 1")`)
	}
	if name == "" {
		return "", "", errors.New("the header name is empty")
	}
	for i := 0; i < len(name); i++ {
		if !isTokenChar(name[i]) {
			return "", "", fmt.Errorf("the header name %q holds %q, which a header name may not", name, name[i])
		}
	}
	value = strings.Trim(value, " \t")
	for i := 0; i < len(value); i++ {
		if ch := value[i]; (ch < 0x20 && ch != '\t') || ch == 0x7f {
			return "", "", errors.New("the header value holds a control character (CR, LF or NUL)")
		}
	}
	if !utf8.ValidString(value) {
		return "", "", errors.New("the header value is not valid UTF-8")
	}
	return name, value, nil
}

// isTokenChar reports whether ch may appear in an RFC 7230 token.
func isTokenChar(ch byte) bool {
	switch {
	case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", ch) >= 0
}

// SensitiveName reports whether a header, cookie or storage key looks like
// it carries a credential.
func SensitiveName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key":
		return true
	}
	for _, w := range []string{"token", "secret", "key", "auth", "password", "passwd", "session", "cookie", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// RedactHeader is how a header is shown: sensitive values become "****",
// keeping a well-known auth scheme ("Bearer ****").
func RedactHeader(name, value string) string {
	if !SensitiveName(name) {
		return name + ": " + value
	}
	if scheme, _, ok := strings.Cut(value, " "); ok {
		switch strings.ToLower(scheme) {
		case "bearer", "basic", "digest", "token", "negotiate", "ntlm":
			return name + ": " + scheme + " ****"
		}
	}
	return name + ": ****"
}

func listHeaders(h map[string]string) string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	lines := make([]string, len(names))
	for i, k := range names {
		lines[i] = "  " + RedactHeader(k, h[k])
	}
	return strings.Join(lines, "\n")
}

func runHeader(ctx context.Context, c *Call) (string, error) {
	if len(c.Args) == 0 {
		h := c.Browser.ExtraHeaders()
		if len(h) == 0 {
			return "No extra headers are set.", nil
		}
		return fmt.Sprintf("Extra headers sent on every request (%d):\n%s", len(h), listHeaders(h)), nil
	}
	name, value, err := ParseHeader(strings.Join(c.Args, " "))
	if err != nil {
		return "", UsageError(mustLookup("header"), "%s.", capitalise(err.Error()))
	}
	h, err := c.Browser.SetExtraHeader(ctx, name, value)
	if err != nil {
		return "", Errorf("Check the header's name and value; the previous headers are still in force.", "The browser refused the header %s: %v.", name, err)
	}
	var msg string
	if value == "" {
		msg = "Removed header " + name
	} else {
		msg = "Header set: " + RedactHeader(name, value) + " (on every request of every tab)"
	}
	if len(h) == 0 {
		return msg + "\nNo extra headers are set now.", nil
	}
	return fmt.Sprintf("%s\nExtra headers now (%d):\n%s", msg, len(h), listHeaders(h)), nil
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ---- useragent ----

func runUserAgent(ctx context.Context, c *Call) (string, error) {
	ua := strings.TrimSpace(strings.Join(c.Args, " "))
	if ua == "" || hasControl(ua) || !utf8.ValidString(ua) {
		return "", UsageError(mustLookup("useragent"), "The user agent must be one line of text.")
	}
	if err := c.Browser.SetUserAgent(ctx, ua); err != nil {
		return "", pageError(err)
	}
	return fmt.Sprintf("User agent set for every tab (%d open, and later ones): %s\nPages and refs are kept; reload a page to fetch it with the new user agent.",
		len(c.Browser.Tabs()), ua), nil
}

// redactHeaderArgs shows "header Name: value" with a sensitive value hidden.
func redactHeaderArgs(args []string) []string {
	if len(args) == 0 {
		return args
	}
	name, value, _ := strings.Cut(strings.Join(args, " "), ":")
	return []string{RedactHeader(strings.TrimSpace(name), strings.TrimSpace(value))}
}

// redactCookieArgs shows "cookie name=value" with the value truncated.
func redactCookieArgs(args []string) []string {
	if len(args) == 1 {
		if name, value, ok := strings.Cut(args[0], "="); ok {
			args[0] = name + "=" + TruncateValue(value)
		}
	}
	return args
}

// redactStorageArgs shows "storage set key value" with the value truncated.
func redactStorageArgs(args []string) []string {
	if len(args) > 2 && args[0] == "set" {
		return []string{"set", args[1], TruncateValue(strings.Join(args[2:], " "))}
	}
	return args
}
