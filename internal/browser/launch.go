package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/browsehq/browse/internal/cdp"
)

// Options say which browser to drive.
type Options struct {
	// ExecPath is the Chromium binary; "" searches BROWSE_CHROMIUM_PATH and PATH.
	ExecPath string
	// ProfileDir is the --user-data-dir for a launched browser.
	ProfileDir string
	// CDPURL attaches to a running browser (ws://… or http://host:port)
	// instead of launching one.
	CDPURL string
	// Stderr receives Chromium's own log output.
	Stderr io.Writer
}

// candidates are tried in order on PATH when BROWSE_CHROMIUM_PATH is unset.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "chrome-headless-shell"}

// FindChromium locates the browser binary.
func FindChromium() (string, error) {
	if p := os.Getenv("BROWSE_CHROMIUM_PATH"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("BROWSE_CHROMIUM_PATH=%s: %v", p, err)
		}
		return p, nil
	}
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return skipWrapperScript(p), nil
		}
	}
	return "", fmt.Errorf("no Chromium found: install it (apt-get install -y chromium) or set BROWSE_CHROMIUM_PATH")
}

// skipWrapperScript returns the real binary behind Debian's /usr/bin/chromium
// shell wrapper. Running it directly saves a shell start on every launch and
// keeps Pdeathsig on the browser process itself rather than on a shell.
func skipWrapperScript(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return p
	}
	head := make([]byte, 2)
	_, _ = io.ReadFull(f, head)
	f.Close()
	if string(head) != "#!" {
		return p
	}
	name := filepath.Base(p)
	real := filepath.Join("/usr/lib", name, name)
	if fi, err := os.Stat(real); err == nil && fi.Mode()&0o111 != 0 {
		return real
	}
	return p
}

// launchArgs are the flags for a headless browser on a closed network.
func launchArgs(profileDir string) []string {
	args := []string{
		"--remote-debugging-pipe",
		"--headless",
		"--user-data-dir=" + profileDir,
		// Closed networks: no background fetches that would fail or stall.
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-breakpad",
		"--disable-domain-reliability",
		"--metrics-recording-only",
		"--password-store=basic",
		"--use-mock-keychain",
		// An agent drives several tabs at once: none of them may be throttled
		// for being in the background.
		"--disable-background-timer-throttling",
		"--disable-backgrounding-occluded-windows",
		"--disable-renderer-backgrounding",
		"--disable-ipc-flooding-protection",
		"--disable-hang-monitor",
		"--disable-popup-blocking",
		"--disable-prompt-on-repost",
		"--disable-dev-shm-usage",
		"--disable-gpu",
		"--mute-audio",
		"--hide-scrollbars",
		"--force-color-profile=srgb",
		"--disable-features=Translate,MediaRouter,OptimizationHints,AcceptCHFrame,DialMediaRouteProvider,CalculateNativeWinOcclusion,InterestFeedContentSuggestions,AutofillServerCommunication",
		"--window-size=1280,720",
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root without it
	}
	// BROWSE_CHROMIUM_ARGS adds flags (space-separated), for proxies and the like.
	args = append(args, strings.Fields(os.Getenv("BROWSE_CHROMIUM_ARGS"))...)
	return append(args, "about:blank")
}

// launch starts Chromium with a CDP pipe. It returns the transport and the
// process; exited is closed when the process ends.
func launch(opts Options) (cdp.Transport, *os.Process, <-chan struct{}, error) {
	path := opts.ExecPath
	if path == "" {
		var err error
		if path, err = FindChromium(); err != nil {
			return nil, nil, nil, err
		}
	}
	if err := os.MkdirAll(opts.ProfileDir, 0o700); err != nil {
		return nil, nil, nil, err
	}
	// A profile left behind by a killed browser keeps its singleton lock;
	// this daemon owns the profile (the state lock guarantees one daemon per
	// profile), so the stale lock is ours to clear.
	for _, f := range []string{"SingletonLock", "SingletonSocket", "SingletonCookie"} {
		os.Remove(filepath.Join(opts.ProfileDir, f))
	}

	toBrowserR, toBrowserW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	fromBrowserR, fromBrowserW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	cmd := exec.Command(path, launchArgs(opts.ProfileDir)...)
	cmd.ExtraFiles = []*os.File{toBrowserR, fromBrowserW} // fd 3 and fd 4
	cmd.Stdout = opts.Stderr
	cmd.Stderr = opts.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid:   true,            // so Close can end the whole process group
		Pdeathsig: syscall.SIGKILL, // the browser never outlives the daemon
	}

	// Pdeathsig fires when the *thread* that forked the child exits, so the
	// fork happens on a locked thread that stays alive until the browser ends.
	started := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		cmd.Wait()
		close(exited)
	}()
	if err := <-started; err != nil {
		return nil, nil, nil, fmt.Errorf("starting %s: %w", path, err)
	}
	toBrowserR.Close()
	fromBrowserW.Close()
	return cdp.NewPipeTransport(toBrowserW, fromBrowserR), cmd.Process, exited, nil
}

// resolveWebSocketURL turns http://host:port into the browser's debugger
// websocket URL via /json/version; ws:// URLs pass through.
func resolveWebSocketURL(ctx context.Context, raw string) (string, error) {
	if strings.HasPrefix(raw, "ws://") || strings.HasPrefix(raw, "wss://") {
		return raw, nil
	}
	if !strings.HasPrefix(raw, "http://") && !strings.HasPrefix(raw, "https://") {
		return "", fmt.Errorf("CDP URL %q must start with ws://, wss://, http:// or https://", raw)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimRight(raw, "/")+"/json/version", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("reaching the browser at %s: %w", raw, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(body), &v); err != nil || v.WebSocketDebuggerURL == "" {
		return "", fmt.Errorf("%s/json/version did not name a webSocketDebuggerUrl", raw)
	}
	return v.WebSocketDebuggerURL, nil
}
