// Package state finds and maintains the files a daemon shares with its CLIs:
// the state file (how to reach the daemon), its startup lock, its log and the
// browser profile. All of them live in <root>/.gstack/, where <root> is the
// nearest directory holding .git, or the working directory.
package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// File is the JSON in .gstack/browse.json. Field names follow the reference
// implementation so tools that read it keep working.
type File struct {
	PID           int    `json:"pid"`
	Port          int    `json:"port"`
	Token         string `json:"token"`
	StartedAt     string `json:"startedAt"`
	BinaryVersion string `json:"binaryVersion"`
	Mode          string `json:"mode"` // "headless" or "cdp"
	CDPURL        string `json:"cdpUrl,omitempty"`
	Session       string `json:"session,omitempty"`
	ChromiumPID   int    `json:"chromiumPid,omitempty"`
	// TunnelPort is the loopback port of the tunnel listener, the only one
	// a tunnel forwards, while a tunnel is up.
	TunnelPort int         `json:"tunnelPort,omitempty"`
	Tunnel     *TunnelInfo `json:"tunnel,omitempty"`
	// ExitReason is set by a daemon that stopped abnormally (its browser
	// died): it leaves the file behind so the next CLI can say why it is
	// starting a new one.
	ExitReason string `json:"exitReason,omitempty"`
}

// TunnelInfo describes an open tunnel: its public URL (the tunnel
// listener's loopback URL under BROWSE_TUNNEL_LOCAL_ONLY).
type TunnelInfo struct {
	URL       string `json:"url"`
	Domain    string `json:"domain,omitempty"`
	StartedAt string `json:"startedAt"`
	LocalOnly bool   `json:"localOnly,omitempty"`
}

// Paths are the files of one daemon (one workspace and session).
type Paths struct {
	Dir        string // .gstack directory, 0700
	StateFile  string
	LockFile   string
	LogFile    string
	ProfileDir string
	Session    string
}

// CaptureLog is where captured events of a kind (console, network, dialog)
// are appended: .gstack/browse-console.log, as in the reference.
func (p Paths) CaptureLog(kind string) string {
	return filepath.Join(p.Dir, trimExt(filepath.Base(p.StateFile))+"-"+kind+".log")
}

// ValidSession reports whether name can be used as a session name: it ends up
// in file names, so it is kept to a safe alphabet. (No regexp: compiling one
// at init would cost every CLI call a third of a millisecond.)
func ValidSession(name string) error {
	ok := len(name) <= 64
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		ok = alnum || i > 0 && (c == '_' || c == '.' || c == '-')
	}
	if ok {
		return nil
	}
	return fmt.Errorf("invalid session name %q: use letters, digits, '.', '_' or '-' (at most 64)", name)
}

// Resolve computes the paths for a session. stateOverride is
// BROWSE_STATE_FILE; when set, every other file sits beside it.
func Resolve(cwd, session, stateOverride string) Paths {
	var p Paths
	p.Session = session
	suffix := ""
	if session != "" {
		suffix = "-" + session
	}
	if stateOverride != "" {
		if !filepath.IsAbs(stateOverride) {
			stateOverride = filepath.Join(cwd, stateOverride)
		}
		p.StateFile = stateOverride
		p.Dir = filepath.Dir(stateOverride)
	} else {
		p.Dir = filepath.Join(ProjectRoot(cwd), ".gstack")
		p.StateFile = filepath.Join(p.Dir, "browse"+suffix+".json")
	}
	base := trimExt(filepath.Base(p.StateFile))
	p.LockFile = p.StateFile + ".lock"
	p.LogFile = filepath.Join(p.Dir, base+"-daemon.log")
	p.ProfileDir = filepath.Join(p.Dir, base+"-profile")
	return p
}

func trimExt(name string) string {
	return name[:len(name)-len(filepath.Ext(name))]
}

// ProjectRoot is the nearest ancestor of dir that holds .git (a directory, or
// a file for worktrees), else dir itself. Walking up is microseconds where
// running `git rev-parse` would cost milliseconds on every CLI call.
func ProjectRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// EnsureDir creates the .gstack directory with mode 0700 and a .gitignore that
// keeps its contents out of the user's repository.
func EnsureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, os.ErrNotExist) {
		return os.WriteFile(ignore, []byte("*\n"), 0o600)
	}
	return nil
}

// Read loads the state file. A missing file returns os.ErrNotExist.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("state file %s is corrupt: %w", path, err)
	}
	return &f, nil
}

// Write stores f atomically (tmp file, then rename) with mode 0600.
func Write(path string, f *File) error {
	if err := EnsureDir(filepath.Dir(path)); err != nil {
		return err
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// RemoveIfOwned deletes the state file only if it still names pid, so a daemon
// that is shutting down never deletes its successor's file.
func RemoveIfOwned(path string, pid int) {
	if f, err := Read(path); err == nil && f.PID == pid {
		os.Remove(path)
	}
}

// Lock is an exclusive flock on the startup lock file.
type Lock struct{ f *os.File }

// AcquireLock takes the lock, waiting up to timeout.
func AcquireLock(path string, timeout time.Duration) (*Lock, error) {
	if err := EnsureDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("could not take the startup lock %s: %w", path, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Release drops the lock.
func (l *Lock) Release() {
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}

// DaemonAlive reports whether pid is a live browse daemon. It checks the
// command line as well as the pid, so a pid recycled by an unrelated process
// after a crash is not mistaken for the daemon.
func DaemonAlive(pid int) bool {
	if !ProcessAlive(pid) {
		return false
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return false
	}
	args := bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0})
	return len(args) >= 2 && string(args[1]) == "serve"
}

// ProcessAlive reports whether pid is a running process: not gone, and not a
// zombie waiting to be reaped.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state letter follows the ")" that closes the command name.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || (stat[i+2] != 'Z' && stat[i+2] != 'X')
}
