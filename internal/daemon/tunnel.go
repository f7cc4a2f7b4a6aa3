package daemon

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/browsehq/browse/internal/commands"
	"github.com/browsehq/browse/internal/state"
	"github.com/browsehq/browse/internal/tunnel"
)

// tunnelState is the second listener and, unless BROWSE_TUNNEL_LOCAL_ONLY
// is set, the ngrok endpoint forwarding to it. The local listener is never
// forwarded: a tunnelled request can only reach what tunnelHandler serves.
type tunnelState struct {
	mu      sync.Mutex
	server  *http.Server
	port    int
	forward *tunnel.Forward // nil when local-only
	url     string
	domain  string
	started time.Time
}

// localOnlyTunnel: bind the tunnel listener on loopback without ngrok
// (tests, and trying pairing on one machine).
func localOnlyTunnel() bool { return os.Getenv("BROWSE_TUNNEL_LOCAL_ONLY") == "1" }

// tunnelAtStart: BROWSE_TUNNEL=1 (or the local-only mode) opens the tunnel
// with the daemon.
func tunnelAtStart() bool { return os.Getenv("BROWSE_TUNNEL") == "1" || localOnlyTunnel() }

// startTunnel binds the tunnel listener and, unless local-only, points an
// ngrok endpoint at it. Any failure leaves nothing open: there is no
// fallback to the local listener.
func (d *Daemon) startTunnel(ctx context.Context) (string, error) {
	t := &d.tunnel
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.server != nil {
		return t.url, nil
	}
	localOnly := localOnlyTunnel()
	token := ""
	if !localOnly {
		var ok bool
		if token, ok = tunnel.Authtoken(); !ok {
			return "", &commands.Error{Status: http.StatusBadRequest, Msg: "No ngrok authtoken found.",
				Hint: "Set NGROK_AUTHTOKEN (or run 'ngrok config add-authtoken <token>'), then 'browse tunnel start'."}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("binding the tunnel listener: %w", err)
	}
	srv := newServer(d.tunnelHandler())
	go srv.Serve(ln)
	port := ln.Addr().(*net.TCPAddr).Port
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	var fwd *tunnel.Forward
	domain := os.Getenv("NGROK_DOMAIN")
	if !localOnly {
		if fwd, err = tunnel.Open(ctx, token, domain, port); err != nil {
			srv.Close()
			return "", fmt.Errorf("opening the ngrok tunnel: %w", err)
		}
		url = fwd.URL()
	}
	t.server, t.port, t.forward, t.url, t.domain, t.started = srv, port, fwd, url, domain, time.Now()
	if err := d.writeState(); err != nil {
		d.closeTunnelLocked()
		return "", fmt.Errorf("recording the tunnel in the state file: %w", err)
	}
	log.Printf("tunnel: listener on 127.0.0.1:%d, reachable at %s", port, url)
	return url, nil
}

// stopTunnel closes the tunnel; false when none was open.
func (d *Daemon) stopTunnel() bool {
	d.tunnel.mu.Lock()
	defer d.tunnel.mu.Unlock()
	if d.tunnel.server == nil {
		return false
	}
	d.closeTunnelLocked()
	if err := d.writeState(); err != nil {
		log.Printf("tunnel: updating the state file: %v", err)
	}
	log.Printf("tunnel: closed")
	return true
}

// closeTunnelLocked is the one teardown path: ngrok first (no new
// connections), then the listener. The caller holds tunnel.mu.
func (d *Daemon) closeTunnelLocked() {
	t := &d.tunnel
	if t.forward != nil {
		if err := t.forward.Close(); err != nil {
			log.Printf("tunnel: closing ngrok: %v", err)
		}
	}
	if t.server != nil {
		t.server.Close()
	}
	t.server, t.port, t.forward, t.url, t.domain = nil, 0, nil, "", ""
}

// tunnelURL is the tunnel's address and its listener's port, if one is open.
func (d *Daemon) tunnelURL() (string, int) {
	d.tunnel.mu.Lock()
	defer d.tunnel.mu.Unlock()
	return d.tunnel.url, d.tunnel.port
}

// tunnelInfo is the tunnel's part of the state file; the caller holds
// tunnel.mu or knows no tunnel call runs.
func (d *Daemon) tunnelInfoLocked() (int, *state.TunnelInfo) {
	t := &d.tunnel
	if t.server == nil {
		return 0, nil
	}
	return t.port, &state.TunnelInfo{URL: t.url, Domain: t.domain, StartedAt: t.started.UTC().Format(time.RFC3339), LocalOnly: t.forward == nil}
}

// Tunnel implements commands.Daemon.
func (d *Daemon) Tunnel(ctx context.Context, action, arg string) (string, error) {
	switch action {
	case "start":
		if url, _ := d.tunnelURL(); url != "" {
			return "Tunnel already open: " + url, nil
		}
		url, err := d.startTunnel(ctx)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Tunnel open: %s\nRemote agents reach only /connect and /command there. Run 'browse pair-agent' to give one a setup key.", url), nil
	case "stop":
		if !d.stopTunnel() {
			return "No tunnel was open.", nil
		}
		return "Tunnel closed. Paired agents keep their tokens for the local listener until they expire or are revoked.", nil
	case "status":
		url, port := d.tunnelURL()
		if url == "" {
			return "Tunnel: closed", nil
		}
		return fmt.Sprintf("Tunnel: open at %s (listener 127.0.0.1:%d)\nAgents: %d paired", url, port, len(d.tokens.Agents())), nil
	case "agents":
		agents := d.tokens.Agents()
		if len(agents) == 0 {
			return "No paired agents.", nil
		}
		var b strings.Builder
		for _, a := range agents {
			fmt.Fprintf(&b, "%s  scopes=%s tabs=%s commands=%d expires=%s\n", a.ClientID, joinScopes(a.Scopes), a.TabPolicy, a.CommandCount, a.ExpiresAt.UTC().Format(time.RFC3339))
		}
		return strings.TrimRight(b.String(), "\n"), nil
	case "revoke":
		if d.tokens.Revoke(arg) == 0 {
			return "", &commands.Error{Status: http.StatusNotFound, Msg: fmt.Sprintf("No agent named %q.", arg), Hint: "Run 'browse tunnel agents' to list them."}
		}
		log.Printf("auth: agent %q revoked", arg)
		return fmt.Sprintf("Revoked %s: its token and any pending setup key no longer work.", arg), nil
	}
	return "", errors.New("unknown tunnel action " + action)
}

// handleTunnelStart is POST /tunnel/start: {"url": …} once the tunnel is up.
func (d *Daemon) handleTunnelStart(w http.ResponseWriter, r *http.Request) {
	if url, _ := d.tunnelURL(); url != "" {
		writeJSON(w, http.StatusOK, map[string]any{"url": url, "already_active": true})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	url, err := d.startTunnel(ctx)
	if err != nil {
		writeError(w, asError(err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": url})
}

// handleTunnelStop is POST /tunnel/stop.
func (d *Daemon) handleTunnelStop(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]bool{"stopped": d.stopTunnel()})
}
