package cdp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/coder/websocket"
)

// Transport moves whole CDP messages. Send may be called concurrently; Recv is
// called by one reader goroutine.
type Transport interface {
	Send(msg []byte) error
	Recv() ([]byte, error)
	Close() error
}

// pipeTransport speaks Chromium's --remote-debugging-pipe framing: JSON
// messages separated by NUL bytes, written to fd 3 and read from fd 4.
type pipeTransport struct {
	mu sync.Mutex
	w  io.WriteCloser
	r  *bufio.Reader
	rc io.Closer
}

// NewPipeTransport wraps the two pipe ends of a launched browser.
func NewPipeTransport(toBrowser io.WriteCloser, fromBrowser io.ReadCloser) Transport {
	return &pipeTransport{w: toBrowser, r: bufio.NewReaderSize(fromBrowser, 1<<20), rc: fromBrowser}
}

func (p *pipeTransport) Send(msg []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	// One write for message and terminator keeps frames whole.
	buf := make([]byte, len(msg)+1)
	copy(buf, msg)
	_, err := p.w.Write(buf)
	return err
}

func (p *pipeTransport) Recv() ([]byte, error) {
	msg, err := p.r.ReadBytes(0)
	if err != nil {
		return nil, err
	}
	return msg[:len(msg)-1], nil
}

func (p *pipeTransport) Close() error {
	return errors.Join(p.w.Close(), p.rc.Close())
}

// wsTransport is a CDP websocket connection, used to attach to a browser the
// daemon did not launch (BROWSE_CDP_URL).
type wsTransport struct {
	c      *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc
}

// DialWebSocket connects to a browser's debugger URL (ws://host:port/devtools/browser/…).
func DialWebSocket(ctx context.Context, url string) (Transport, error) {
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(256 << 20) // AX trees and screenshots are large
	bg, cancel := context.WithCancel(context.Background())
	return &wsTransport{c: c, ctx: bg, cancel: cancel}, nil
}

func (w *wsTransport) Send(msg []byte) error {
	return w.c.Write(w.ctx, websocket.MessageText, msg)
}

func (w *wsTransport) Recv() ([]byte, error) {
	_, msg, err := w.c.Read(w.ctx)
	return msg, err
}

func (w *wsTransport) Close() error {
	w.cancel()
	return w.c.Close(websocket.StatusNormalClosure, "")
}
