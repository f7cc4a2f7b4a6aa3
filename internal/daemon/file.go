package daemon

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/browsehq/browse/internal/commands"
	"github.com/browsehq/browse/internal/safepath"
)

// MaxServedFileBytes is the largest file GET /file serves.
const MaxServedFileBytes = 200 << 20

const fileHint = "GET /file serves regular files under the temp directory (where download, scrape, archive and screenshots go by default): /file?path=/tmp/x.png."

// handleFile serves a file the daemon wrote to the temp directory, so a
// remote agent can fetch what a command saved. Only the temp directories
// are served, never the workspace, and never the daemon's own state.
func (d *Daemon) handleFile(w http.ResponseWriter, r *http.Request) {
	// A long transfer is activity: no idle exit under it.
	d.busy.Add(1)
	defer d.busy.Add(-1)
	d.touch()
	defer d.touch()
	p := r.URL.Query().Get("path")
	if p == "" {
		writeError(w, &commands.Error{Status: http.StatusBadRequest, Msg: "Missing ?path=.", Hint: fileHint})
		return
	}
	resolved, err := d.servablePath(p)
	if err != nil {
		writeError(w, &commands.Error{Status: http.StatusForbidden, Msg: fmt.Sprintf("Refusing to serve %s: %v.", p, err), Hint: fileHint})
		return
	}
	// O_NOFOLLOW: a symlink swapped in after the check is refused, not followed.
	f, err := os.OpenFile(resolved, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		status := http.StatusForbidden
		if errors.Is(err, os.ErrNotExist) {
			status = http.StatusNotFound
		}
		writeError(w, &commands.Error{Status: status, Msg: fmt.Sprintf("Cannot open %s: %v.", p, errors.Unwrap(err)), Hint: "Check the path the command printed."})
		return
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil || !info.Mode().IsRegular():
		writeError(w, &commands.Error{Status: http.StatusBadRequest, Msg: fmt.Sprintf("%s is not a regular file.", p), Hint: fileHint})
		return
	case info.Size() > MaxServedFileBytes:
		writeError(w, &commands.Error{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf("%s is larger than 200 MB.", p), Hint: "Read it from disk on the daemon's machine instead."})
		return
	}
	ctype := mime.TypeByExtension(filepath.Ext(resolved))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// ServeContent sets Content-Length and answers range requests (video).
	http.ServeContent(w, r, filepath.Base(resolved), info.ModTime(), f)
}

// servablePath resolves p (symlinks included) and accepts it only inside
// the temp directories, and not among the daemon's own files (state file
// with its token, logs, browser profile), which sit in the temp dir when
// the workspace or BROWSE_STATE_FILE does.
func (d *Daemon) servablePath(p string) (string, error) {
	roots := []string{os.TempDir()}
	if os.TempDir() != "/tmp" {
		roots = append(roots, "/tmp")
	}
	resolved, err := safepath.Check(p, roots)
	if err != nil {
		return "", err
	}
	// Any workspace's .gstack holds its token and its browser profile
	// (cookies): never served, whoever's it is.
	if slices.Contains(strings.Split(resolved, string(filepath.Separator)), ".gstack") {
		return "", errors.New("it is inside a .gstack state directory (tokens, logs, browser profiles)")
	}
	paths := d.cfg.Paths
	private := []string{paths.StateFile, paths.LockFile, paths.LogFile, paths.ProfileDir,
		paths.CaptureLog("console"), paths.CaptureLog("network"), paths.CaptureLog("dialog")}
	if filepath.Base(paths.Dir) == ".gstack" {
		private = append(private, paths.Dir)
	}
	for _, q := range private {
		if q != "" && within(resolved, q) {
			return "", errors.New("it is one of the daemon's own files")
		}
	}
	return resolved, nil
}

// within reports whether p is dir or lies under it, after resolving dir's
// symlinks as p's were.
func within(p, dir string) bool {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}
