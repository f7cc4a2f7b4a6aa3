package hotpath

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/browsehq/browse/internal/state"
)

// Request is the JSON body of POST /command.
type Request struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	TabID   int      `json:"tabId,omitempty"`
	Timeout int      `json:"timeout,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	// Steps is how many commands the request runs (a chain's): the wait
	// for the answer grows with it.
	Steps int `json:"-"`
}

// ErrNoDaemon means nothing answered on the daemon's port: the command
// certainly did not run.
var ErrNoDaemon = errors.New("no daemon answered")

const (
	// defaultWait is how long to wait for an answer when no --timeout is
	// given: longer than any command's own default deadline.
	defaultWait = 90 * time.Second
	busyNotice  = 10 * time.Second
)

// Send POSTs the command to the daemon and prints the answer: the output on
// stdout and exit code 0, or the error and its hint on stderr and 1.
//
// It speaks HTTP/1.1 by hand over one blocking socket: net/http's client
// (its transport goroutines, and the package's start-up) and net's poller
// cost a CLI that sends a single request more than the request itself.
func Send(st *state.File, req *Request, stdout, stderr io.Writer) (int, error) {
	body, _ := json.Marshal(req)
	wait := defaultWait
	if req.Timeout > 0 {
		wait = time.Duration(req.Timeout)*time.Millisecond + 5*time.Second
	}
	wait *= time.Duration(max(req.Steps, 1))
	addr := "127.0.0.1:" + strconv.Itoa(st.Port)
	conn, err := dial(st.Port, wait)
	if err != nil {
		return 1, ErrNoDaemon
	}
	defer conn.Close()
	var head bytes.Buffer
	head.Grow(256 + len(body))
	head.WriteString("POST /command HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer " + st.Token +
		"\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
	head.Write(body)
	if _, err := conn.Write(head.Bytes()); err != nil {
		return 1, ErrNoDaemon
	}

	notice := time.AfterFunc(busyNotice, func() {
		fmt.Fprintf(stderr, "browse: still waiting for the daemon (pid %d) to answer '%s' — it is busy (a slow page or earlier commands on this tab)\n", st.PID, req.Command)
	})
	status, out, err := readAnswer(bufio.NewReader(conn))
	notice.Stop()
	if err != nil {
		if errors.Is(err, errTimeout) {
			return 1, fmt.Errorf("the daemon (pid %d) did not answer '%s' within %s; it is alive and was left running — retry, or run 'browse restart'", st.PID, req.Command, wait)
		}
		return 1, fmt.Errorf("the daemon (pid %d) went away while running '%s' (%v); the next command starts a fresh one", st.PID, req.Command, err)
	}
	if status == 200 {
		stdout.Write(out)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			io.WriteString(stdout, "\n")
		}
		return 0, nil
	}
	e, ok := decodeError(out)
	if !ok {
		e.Error = fmt.Sprintf("the daemon answered %d: %s", status, bytes.TrimSpace(out))
	}
	return Fail(stderr, e.Error, e.Hint), nil
}

// readAnswer reads an HTTP/1.1 response to a Connection: close request: its
// status code and body (Content-Length bytes, or up to the end).
func readAnswer(r *bufio.Reader) (int, []byte, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, nil, err
	}
	proto, rest, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
	code, _, _ := strings.Cut(rest, " ")
	status, err := strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/1.") || err != nil {
		return 0, nil, fmt.Errorf("malformed status line %q", strings.TrimSpace(line))
	}
	length, chunked := -1, false
	for {
		h, err := r.ReadString('\n')
		if err != nil {
			return 0, nil, err
		}
		h = strings.TrimRight(h, "\r\n")
		if h == "" {
			break
		}
		name, value, _ := strings.Cut(h, ":")
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			if length, err = strconv.Atoi(strings.TrimSpace(value)); err != nil || length < 0 {
				return 0, nil, fmt.Errorf("malformed Content-Length %q", value)
			}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Transfer-Encoding") {
			chunked = strings.EqualFold(strings.TrimSpace(value), "chunked")
		}
	}
	if chunked {
		body, err := readChunks(r)
		return status, body, err
	}
	if length < 0 {
		body, err := io.ReadAll(r)
		return status, body, err
	}
	body := make([]byte, length)
	_, err = io.ReadFull(r, body)
	return status, body, err
}

// readChunks reads a chunked body: hex sizes, each chunk, up to size 0.
func readChunks(r *bufio.Reader) ([]byte, error) {
	var body []byte
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		hex, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		n, err := strconv.ParseInt(hex, 16, 64)
		if err != nil || n < 0 || n > 1<<30 {
			return nil, fmt.Errorf("malformed chunk size %q", hex)
		}
		if n == 0 {
			return body, nil
		}
		start := len(body)
		body = append(body, make([]byte, n)...)
		if _, err := io.ReadFull(r, body[start:]); err != nil {
			return nil, err
		}
		if _, err := r.Discard(2); err != nil { // the chunk's CRLF
			return nil, err
		}
	}
}
