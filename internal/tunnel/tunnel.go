// Package tunnel opens the public ngrok endpoint that lets a remote agent
// reach the daemon's tunnel listener. It only forwards: who may do what on
// that listener is the daemon's business.
package tunnel

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.ngrok.com/ngrok/v2"
)

// Forward is an open ngrok endpoint forwarding to a loopback port.
type Forward struct {
	agent ngrok.Agent
	fwd   ngrok.EndpointForwarder
}

// URL is the endpoint's public address.
func (f *Forward) URL() string { return f.fwd.URL().String() }

// Close takes the endpoint down and disconnects from ngrok.
func (f *Forward) Close() error {
	return errors.Join(f.fwd.Close(), f.agent.Disconnect())
}

// Open connects to ngrok with authtoken and forwards a public endpoint
// (domain, when set: NGROK_DOMAIN) to 127.0.0.1:port. Nothing is left open
// when it fails.
func Open(ctx context.Context, authtoken, domain string, port int) (*Forward, error) {
	agent, err := ngrok.NewAgent(ngrok.WithAuthtoken(authtoken), ngrok.WithClientInfo("browse", "1"))
	if err != nil {
		return nil, fmt.Errorf("setting up ngrok: %w", err)
	}
	var opts []ngrok.EndpointOption
	if domain != "" {
		opts = append(opts, ngrok.WithURL(domain))
	}
	fwd, err := agent.Forward(ctx, ngrok.WithUpstream("http://127.0.0.1:"+strconv.Itoa(port)), opts...)
	if err != nil {
		agent.Disconnect()
		return nil, fmt.Errorf("opening the ngrok endpoint: %w", err)
	}
	return &Forward{agent: agent, fwd: fwd}, nil
}

// Authtoken finds the ngrok authtoken: $NGROK_AUTHTOKEN, then
// ~/.gstack/ngrok.env (NGROK_AUTHTOKEN=…), then ngrok's own config files.
// It never logs the token.
func Authtoken() (string, bool) {
	if t := strings.TrimSpace(os.Getenv("NGROK_AUTHTOKEN")); t != "" {
		return t, true
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", false
	}
	if t := findKey(filepath.Join(home, ".gstack", "ngrok.env"), "NGROK_AUTHTOKEN="); t != "" {
		return t, true
	}
	for _, p := range []string{
		filepath.Join(home, ".config", "ngrok", "ngrok.yml"),
		filepath.Join(home, "Library", "Application Support", "ngrok", "ngrok.yml"),
		filepath.Join(home, ".ngrok2", "ngrok.yml"),
	} {
		if t := findKey(p, "authtoken:"); t != "" {
			return t, true
		}
	}
	return "", false
}

// findKey returns the value after the first line of file that starts with
// key (leading spaces allowed), unquoted; "" when there is none.
func findKey(file, key string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, key); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}
