package daemon

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/browsehq/browse/internal/activity"
	"github.com/browsehq/browse/internal/commands"
)

// heartbeat keeps idle activity streams (and the proxies between) alive.
const heartbeat = 15 * time.Second

func (d *Daemon) handleActivityStream(w http.ResponseWriter, r *http.Request) {
	d.activity.ServeSSE(w, r, heartbeat)
}

func (d *Daemon) handleActivityHistory(w http.ResponseWriter, r *http.Request) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	entries, total := d.activity.History(limit)
	writeJSON(w, http.StatusOK, map[string]any{"entries": entries, "totalAdded": total, "subscribers": d.activity.Subscribers()})
}

// recordStart and recordEnd publish a command to the activity feed, with its
// arguments as reports may show them.
func (d *Daemon) recordStart(cmd *commands.Command, req *Request, client string) {
	d.activity.Emit(activity.Entry{Type: "command_start", Command: cmd.Name, Args: shownArgs(cmd, req.Args), TabID: req.TabID, ClientID: client})
}

func (d *Daemon) recordEnd(cmd *commands.Command, req *Request, client, pageURL string, took time.Duration, cerr *commands.Error) {
	e := activity.Entry{Type: "command_end", Command: cmd.Name, Args: shownArgs(cmd, req.Args), TabID: req.TabID, URL: redactURL(pageURL),
		Duration: took.Milliseconds(), Status: "ok", ClientID: client}
	if cerr != nil {
		e.Status, e.Error = "error", cerr.Msg
	}
	d.activity.Emit(e)
}

// shownArgs hides the command's secret arguments and the values of
// secret-looking query parameters in URLs.
func shownArgs(cmd *commands.Command, args []string) []string {
	out := slices.Clone(cmd.ShownArgs(args)) // never the command's own arguments
	for i, a := range out {
		if strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://") {
			out[i] = redactURL(a)
		}
	}
	return out
}

// redactURL replaces the values of query parameters whose names suggest a
// secret (token, key, password…).
func redactURL(raw string) string {
	if !strings.Contains(raw, "?") {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	changed := false
	for name := range q {
		if secretName(name) {
			q.Set(name, "REDACTED")
			changed = true
		}
	}
	if !changed {
		return raw
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"password", "passwd", "token", "secret", "key", "auth", "bearer", "session", "sig", "code"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}
