package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/state"
)

// Saved state: 'state save NAME' writes the cookies, the open tabs' URLs
// and each open origin's localStorage to .gstack/browse-state-NAME.json
// (mode 0600); 'state load NAME' reads the whole file, checks it, and only
// then changes the browser. The file's shape is Playwright's storage state
// ({"cookies": [...], "origins": [...]}) plus the tabs, so cookie-import
// also takes it.

// savedState is the file.
type savedState struct {
	Version int              `json:"version"`
	SavedAt string           `json:"savedAt"`
	Cookies []ImportedCookie `json:"cookies"`
	Origins []OriginStorage  `json:"origins"`
	Tabs    []savedTab       `json:"tabs"`
}

type savedTab struct {
	URL    string `json:"url"`
	Active bool   `json:"active,omitempty"`
}

const savedStateVersion = 1

// stateName checks a state name: it becomes part of a file name.
func stateName(name string) error {
	ok := name != "" && len(name) <= 64
	for i := 0; ok && i < len(name); i++ {
		ch := name[i]
		ok = ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-'
	}
	if !ok {
		return UsageError(mustLookup("state"), "Invalid state name %q: use letters, digits, '_' and '-' (at most 64).", name)
	}
	return nil
}

func statePath(c *Call, name string) string {
	return filepath.Join(c.Daemon.StateDir(), "browse-state-"+name+".json")
}

func runState(ctx context.Context, c *Call) (string, error) {
	action, name := c.Args[0], c.Args[1]
	if action != "save" && action != "load" {
		return "", UsageError(mustLookup("state"), "Unknown state action %q: use save or load.", action)
	}
	if err := stateName(name); err != nil {
		return "", err
	}
	if action == "save" {
		return stateSave(ctx, c, name)
	}
	return stateLoad(ctx, c, name)
}

// savableURL reports whether a tab's URL is worth saving: http(s) and
// file:// pages. Others (about:blank with load-html content, data: URLs,
// error pages) are saved as about:blank, so their content never reaches
// the disk.
func savableURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https" || p.Scheme == "file")
}

func stateSave(ctx context.Context, c *Call, name string) (string, error) {
	if err := c.Browser.RefreshInfo(ctx); err != nil {
		return "", pageError(err)
	}
	cookies, err := c.Browser.Cookies(ctx)
	if err != nil {
		return "", pageError(err)
	}
	st := savedState{Version: savedStateVersion, SavedAt: time.Now().UTC().Format(time.RFC3339), Cookies: []ImportedCookie{}, Origins: []OriginStorage{}}
	for _, ck := range cookies {
		st.Cookies = append(st.Cookies, cookieRecord(ck))
	}
	active := c.Browser.ActiveID()
	seen := map[string]bool{}      // origins whose localStorage was read
	skipped := map[string]string{} // origins that could not be read, and why
	for _, t := range c.Browser.Tabs() {
		u := t.URL()
		if !savableURL(u) {
			u = "about:blank"
		}
		st.Tabs = append(st.Tabs, savedTab{URL: u, Active: t.ID == active})
		origin, err := checkOrigin(originOf(u))
		if err != nil || seen[origin] {
			continue // file:// and about:blank have no origin of their own
		}
		items, err := readLocalStorage(ctx, t)
		if err != nil {
			// Another tab of the origin may still answer (this one may show
			// an error page).
			if skipped[origin] == "" {
				skipped[origin] = fmt.Sprintf("%s (tab %d: %v)", origin, t.ID, err)
			}
			continue
		}
		seen[origin] = true
		if len(items) > 0 {
			st.Origins = append(st.Origins, OriginStorage{Origin: origin, LocalStorage: items})
		}
	}
	data, _ := json.MarshalIndent(st, "", "  ")
	path := statePath(c, name)
	if isDaemonState(path) {
		return "", Errorf("Pick another name.", "%s is the state file of a running '--session state-%s' daemon; saving there would orphan it.", path, name)
	}
	if err := writePrivate(c.Daemon.StateDir(), path, data); err != nil {
		return "", err
	}
	items := 0
	for _, o := range st.Origins {
		items += len(o.LocalStorage)
	}
	msg := fmt.Sprintf("Saved state %q to %s: %d cookies, %d tabs, %d localStorage items for %d origins",
		name, path, len(st.Cookies), len(st.Tabs), items, len(st.Origins))
	var notSaved []string
	for origin, why := range skipped {
		if !seen[origin] {
			notSaved = append(notSaved, why)
		}
	}
	if len(notSaved) > 0 {
		sort.Strings(notSaved)
		msg += "\nNot saved, the localStorage of " + strings.Join(notSaved, "; ")
	}
	return msg, nil
}

func originOf(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// readLocalStorage reads a tab's localStorage, in its turn (after the
// command running on it, if any, for at most 3 seconds).
func readLocalStorage(ctx context.Context, t *browser.Tab) ([]StorageItem, error) {
	turnCtx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := t.Acquire(turnCtx); err != nil {
		return nil, errors.New("the tab stayed busy")
	}
	defer t.Release()
	obj, err := t.Evaluate(turnCtx, `(() => { const o = []; for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); o.push({name: k, value: localStorage.getItem(k)}); } return o; })()`)
	if err != nil {
		return nil, err
	}
	var items []StorageItem
	if err := json.Unmarshal(obj.Value, &items); err != nil {
		return nil, err
	}
	return items, nil
}

// writePrivate writes a file only its owner can read, in a 0700 directory,
// through a temp file and a rename.
func writePrivate(dir, path string, data []byte) error {
	if err := state.EnsureDir(dir); err != nil {
		return Errorf("Check the directory's permissions.", "Cannot create %s: %v.", dir, err)
	}
	return writeAtomic(path, data, 0o600)
}

// readState reads and checks a saved state completely; nothing in the
// browser changes before it returns without error.
func readState(c *Call, name string) (*savedState, error) {
	path := statePath(c, name)
	if isDaemonState(path) {
		return nil, Errorf("Pick the name of a state saved with 'state save'.", "%s is a daemon's state file ('--session state-%s'), not a saved state.", path, name)
	}
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		hint := "Run 'state save " + name + "' first."
		if names := savedStateNames(c); len(names) > 0 {
			hint += " Saved states: " + strings.Join(names, ", ") + "."
		}
		return nil, &Error{Status: 404, Msg: fmt.Sprintf("No saved state %q (%s).", name, path), Hint: hint}
	}
	if err != nil {
		return nil, Errorf("Check the file's permissions.", "Cannot read %s: %v.", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, Errorf("Remove it and save the state again.", "%s is not a regular file.", path)
	}
	if info.Size() > maxCookieFileBytes {
		return nil, Errorf("Remove it and save the state again.", "%s is %s, over the %s limit.", path, browser.HumanBytes(info.Size()), browser.HumanBytes(maxCookieFileBytes))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Errorf("Check the file's permissions.", "Cannot read %s: %v.", path, err)
	}
	bad := func(format string, args ...any) error {
		return Errorf("Save the state again with 'state save "+name+"'. The browser was not changed.",
			"The saved state %s is not valid: %s.", path, fmt.Sprintf(format, args...))
	}
	var st savedState
	if err := strictUnmarshal(data, &st); err != nil {
		return nil, bad("%v", err)
	}
	if st.Version != savedStateVersion {
		return nil, bad("version %d, expected %d", st.Version, savedStateVersion)
	}
	cookies, origins, err := parseCookieFile(data)
	if err != nil {
		return nil, bad("%v", err)
	}
	st.Cookies, st.Origins = cookies, origins
	if len(st.Tabs) == 0 {
		return nil, bad("no tabs")
	}
	for i, t := range st.Tabs {
		if t.URL == "about:blank" {
			continue
		}
		u, err := checkURL(c, t.URL)
		if err != nil || !savableURL(u) {
			return nil, bad("tab %d's URL %q cannot be opened", i+1, t.URL)
		}
		st.Tabs[i].URL = u
	}
	return &st, nil
}

// isDaemonState reports whether path is a daemon's state file: the name of
// a saved state "x" is also that of a '--session state-x' daemon's.
func isDaemonState(path string) bool {
	st, err := state.Read(path)
	return err == nil && st.PID > 0
}

// savedStateNames lists the states saved beside the daemon's state file.
func savedStateNames(c *Call) []string {
	files, _ := filepath.Glob(filepath.Join(c.Daemon.StateDir(), "browse-state-*.json"))
	var names []string
	for _, f := range files {
		if isDaemonState(f) {
			continue
		}
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "browse-state-"), ".json"))
	}
	sort.Strings(names)
	return names
}

// stateLoad restores a saved state. The order keeps pages from loading
// without their state: cookies first, then localStorage (origin by origin,
// in a scratch tab), then the saved tabs are opened as new tabs. The tabs
// that were open before are closed only once all of those are open.
func stateLoad(ctx context.Context, c *Call, name string) (string, error) {
	st, err := readState(c, name)
	if err != nil {
		return "", err
	}
	domains, err := setImported(ctx, c.Browser, st.Cookies)
	if err != nil {
		return "", Errorf("Check the saved cookies. The browser was not changed.", "The browser refused the saved cookies: %v.", err)
	}
	items, skipped, err := restoreLocalStorage(ctx, c.Browser, st.Origins)
	if err != nil {
		return "", Errorf("The cookies were restored; the tabs were not changed. Run 'state load' again.", "Restoring localStorage failed: %v.", err)
	}
	var opened []*browser.Tab
	var activeTab *browser.Tab
	var failed []string
	for i, saved := range st.Tabs {
		t, err := c.Browser.NewTab(ctx, "")
		if err != nil {
			// Undo: close what was opened, keep the tabs as they were.
			browser.Afterward(func(ctx context.Context) {
				for _, t := range opened {
					c.Browser.CloseTab(ctx, t.ID)
				}
			})
			return "", Errorf("The cookies and localStorage were restored; the tabs were not changed.", "Opening tab %d of %d failed: %v.", i+1, len(st.Tabs), err)
		}
		opened = append(opened, t)
		if saved.Active || activeTab == nil {
			activeTab = t
		}
	}
	// The pages load in parallel, 10 s each at most: a state of several
	// slow tabs still fits the command's deadline.
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, saved := range st.Tabs {
		if saved.URL == "about:blank" {
			continue
		}
		wg.Add(1)
		go func(t *browser.Tab, u string) {
			defer wg.Done()
			navCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			if _, err := t.Navigate(navCtx, u); err != nil {
				mu.Lock()
				failed = append(failed, fmt.Sprintf("%s (%v)", u, err))
				mu.Unlock()
			}
		}(opened[i], saved.URL)
	}
	wg.Wait()
	// Every other tab goes: those open before, and any that attached
	// meanwhile (a browser that just started may still be restoring one).
	// This runs under its own short deadline, so a load that used up the
	// command's time still ends with the saved tabs only.
	closed, stayed := 0, 0
	browser.Afterward(func(ctx context.Context) {
		for _, t := range c.Browser.Tabs() {
			if slices.Contains(opened, t) {
				continue
			}
			if _, err := c.Browser.CloseTab(ctx, t.ID); err == nil {
				closed++
			} else {
				stayed++
			}
		}
		c.Browser.Activate(ctx, activeTab.ID)
	})
	msg := fmt.Sprintf("Loaded state %q: %d cookies for %d domains, %d localStorage items for %d origins, %d tabs (active: tab %d, %s); closed the %d tabs open before",
		name, len(st.Cookies), domains, items, len(st.Origins), len(opened), activeTab.ID, activeTab.URL(), closed)
	if len(failed) > 0 {
		msg += "\nThese pages did not load (their tabs are open; 'reload' to retry): " + strings.Join(failed, "; ")
	}
	if stayed > 0 {
		msg += fmt.Sprintf("\n%d earlier tabs could not be closed; 'tabs' lists them.", stayed)
	}
	if len(skipped) > 0 {
		msg += "\nlocalStorage was not restored for: " + strings.Join(skipped, "; ")
	}
	return msg, nil
}

// restoreLocalStorage sets each origin's items in a scratch tab: it loads
// the origin's root page (so the page runs, once, without the items), sets
// them, and moves on. It returns the number of items set and the origins
// it could not restore (their root page redirected elsewhere, failed or
// was slow): one such origin does not stop the others.
func restoreLocalStorage(ctx context.Context, b *browser.Browser, origins []OriginStorage) (int, []string, error) {
	if len(origins) == 0 {
		return 0, nil, nil
	}
	tab, err := b.OpenScratchTab(ctx)
	if err != nil {
		return 0, nil, err
	}
	defer b.CloseScratchTab(tab)
	n := 0
	var skipped []string
	for _, o := range origins {
		if err := restoreOrigin(ctx, tab, o); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s (%v)", o.Origin, err))
			continue
		}
		n += len(o.LocalStorage)
	}
	return n, skipped, nil
}

// restoreOrigin sets one origin's items, within 10 s.
func restoreOrigin(ctx context.Context, tab *browser.Tab, o OriginStorage) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := tab.Navigate(ctx, o.Origin+"/"); err != nil {
		return fmt.Errorf("loading it: %w", err)
	}
	items, _ := json.Marshal(o.LocalStorage)
	res, err := tab.Evaluate(ctx, `((items) => { if (location.origin !== `+jsString(o.Origin)+`) return "its page went to " + location.origin;
  for (const it of items) localStorage.setItem(it.name, it.value); return ""; })(`+string(items)+`)`)
	if err != nil {
		return err
	}
	if msg := browser.String(res); msg != "" {
		return errors.New(msg)
	}
	return nil
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
