package selfplay

import (
	"errors"
	"sync"

	"colony/mcts"
)

// Shared lets many goroutines (one per game) use one batched evaluator: their Evaluate calls
// are queued, and a server goroutine hands everything queued at once to the inner evaluator
// as a single batch. With G games in flight a worker's network sees batches of up to
// G x (search batch size) positions, which is where batched inference pays off.
type Shared[P any, M comparable] struct {
	inner  mcts.Evaluator[P, M]
	ch     chan *call[P, M]
	buf    []mcts.Request[P, M]
	calls  []*call[P, M]
	closed chan struct{}
	once   sync.Once
}

type call[P any, M comparable] struct {
	batch []mcts.Request[P, M]
	done  chan error
}

// ErrClosed is returned by Evaluate after Close.
var ErrClosed = errors.New("selfplay: shared evaluator closed")

// NewShared starts the server goroutine; Close stops it.
func NewShared[P any, M comparable](inner mcts.Evaluator[P, M]) *Shared[P, M] {
	s := &Shared[P, M]{inner: inner, ch: make(chan *call[P, M], 256), closed: make(chan struct{})}
	go s.serve()
	return s
}

// Client returns an evaluator for one goroutine. Each goroutine needs its own client (it
// owns the reply channel); a client does not allocate per call.
func (s *Shared[P, M]) Client() mcts.Evaluator[P, M] {
	return &client[P, M]{s: s, c: &call[P, M]{done: make(chan error, 1)}}
}

// Close stops the server. Calls in flight get ErrClosed.
func (s *Shared[P, M]) Close() {
	s.once.Do(func() { close(s.closed) })
}

type client[P any, M comparable] struct {
	s *Shared[P, M]
	c *call[P, M]
}

func (c *client[P, M]) Evaluate(batch []mcts.Request[P, M]) error {
	c.c.batch = batch
	select {
	case c.s.ch <- c.c:
	case <-c.s.closed:
		return ErrClosed
	}
	select {
	case err := <-c.c.done:
		return err
	case <-c.s.closed:
		return ErrClosed
	}
}

func (s *Shared[P, M]) serve() {
	for {
		var first *call[P, M]
		select {
		case first = <-s.ch:
		case <-s.closed:
			return
		}
		s.calls = append(s.calls[:0], first)
	drain:
		for {
			select {
			case c := <-s.ch:
				s.calls = append(s.calls, c)
			default:
				break drain
			}
		}
		s.buf = s.buf[:0]
		for _, c := range s.calls {
			s.buf = append(s.buf, c.batch...)
		}
		err := s.inner.Evaluate(s.buf)
		k := 0
		for _, c := range s.calls {
			for i := range c.batch {
				c.batch[i].Value = s.buf[k].Value
				k++
			}
			c.done <- err
		}
	}
}
