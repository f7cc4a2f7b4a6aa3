package hotpath

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// errTimeout is a read or write that ran past the wait.
var errTimeout = errors.New("timed out")

// conn is a blocking TCP socket to the daemon on 127.0.0.1. The net
// package would serve one request through its poller (an epoll instance
// and another thread), which costs a one-request CLI about a millisecond:
// a tenth of the whole call.
type conn struct{ fd int }

// dial connects to 127.0.0.1:port; reads and writes give up after wait.
func dial(port int, wait time.Duration) (*conn, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	tv := syscall.NsecToTimeval(wait.Nanoseconds())
	syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
	for {
		err = syscall.Connect(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return &conn{fd}, nil
}

func (c *conn) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(c.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return 0, errTimeout
		case err != nil:
			return 0, os.NewSyscallError("read", err)
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (c *conn) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := syscall.Write(c.fd, p[written:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return written, errTimeout
		case err != nil:
			return written, os.NewSyscallError("write", err)
		}
		written += n
	}
	return written, nil
}

func (c *conn) Close() error { return syscall.Close(c.fd) }
