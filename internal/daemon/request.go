package daemon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
)

// MaxBodyBytes caps a request body; commands are short.
const MaxBodyBytes = 1 << 20

// Request is the body of POST /command, as in the reference:
// {"command": "goto", "args": ["https://…"], "tabId": 2}. timeout (ms) is our
// addition: the CLI's --timeout.
type Request struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	TabID   int      `json:"tabId,omitempty"`
	Timeout int      `json:"timeout,omitempty"`
	// Cwd, from the CLI's fast path, is the directory relative file
	// arguments are relative to; the daemon makes them absolute (for the
	// local user only).
	Cwd string `json:"cwd,omitempty"`
}

// ParseRequest decodes and checks a /command body. Unknown fields are
// ignored (clients of the reference send extras); wrong types are not.
func ParseRequest(body []byte) (*Request, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, errors.New("empty body")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var r Request
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("malformed JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("malformed JSON: trailing data after the object")
	}
	return &r, r.validate()
}

func (r *Request) validate() error {
	switch {
	case r.Command == "":
		return errors.New(`missing "command"`)
	case len(r.Command) > 64:
		return errors.New(`"command" is too long`)
	case r.TabID < 0:
		return errors.New(`"tabId" must be a positive tab id`)
	case r.Timeout < 0:
		return errors.New(`"timeout" must be a positive number of milliseconds`)
	case len(r.Args) > 1000:
		return errors.New("too many args")
	case r.Cwd != "" && !filepath.IsAbs(r.Cwd):
		return errors.New(`"cwd" must be an absolute directory`)
	}
	return nil
}

// BatchRequest is the body of POST /batch.
type BatchRequest struct {
	Commands []Request `json:"commands"`
}

// MaxBatch is the most commands one batch may carry.
const MaxBatch = 50

// ParseBatch decodes and checks a /batch body.
func ParseBatch(body []byte) (*BatchRequest, error) {
	var b BatchRequest
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, fmt.Errorf("malformed JSON: %v", err)
	}
	if len(b.Commands) == 0 {
		return nil, errors.New(`"commands" is empty`)
	}
	if len(b.Commands) > MaxBatch {
		return nil, fmt.Errorf("a batch holds at most %d commands, got %d", MaxBatch, len(b.Commands))
	}
	return &b, nil
}
