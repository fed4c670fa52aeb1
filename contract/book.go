package contract

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// An opening book: a move for positions near the standard start, computed offline by deep
// searches (cmd/book) and embedded (models/<game>/book.txt), played while a game is in it.
//
// File format (text, UTF-8):
//
//	COLONYBOOK <version> <game> <encoder version>
//	<position in the game's board notation (Position.String)>\t<x1> <y1> <x2> <y2>
//	...                                    (one line a position, sorted)
//	sha256 <hex digest of every byte before this line>
//
// A file whose magic, version, game, encoder version or digest does not match is refused.

// BookMagic and BookVersion start a book file.
const (
	BookMagic   = "COLONYBOOK"
	BookVersion = 1
)

// Book maps positions (their String) to a move in judge coordinates.
type Book struct {
	Game           string
	EncoderVersion int
	Moves          map[string]Coords
}

// NewBook returns an empty book for the game.
func NewBook(info Info) *Book {
	return &Book{Game: info.Name, EncoderVersion: info.EncoderVersion, Moves: map[string]Coords{}}
}

// Write writes the book in its file format (positions sorted: the same book gives the same
// bytes).
func (b *Book) Write(w io.Writer) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s %d %s %d\n", BookMagic, BookVersion, b.Game, b.EncoderVersion)
	keys := make([]string, 0, len(b.Moves))
	for k := range b.Moves {
		if strings.ContainsAny(k, "\t\n") {
			return fmt.Errorf("contract: book position %q has a tab or a newline", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := b.Moves[k]
		fmt.Fprintf(&buf, "%s\t%d %d %d %d\n", k, c[0], c[1], c[2], c[3])
	}
	sum := sha256.Sum256(buf.Bytes())
	fmt.Fprintf(&buf, "sha256 %s\n", hex.EncodeToString(sum[:]))
	_, err := w.Write(buf.Bytes())
	return err
}

// ReadBook reads a book file and checks it is for info's game and encoder version.
func ReadBook(data []byte, info Info) (*Book, error) {
	i := bytes.LastIndex(bytes.TrimRight(data, "\n"), []byte("\nsha256 "))
	if i < 0 {
		return nil, fmt.Errorf("contract: book: no sha256 line (truncated?)")
	}
	body, tail := data[:i+1], strings.TrimSpace(string(data[i+1:]))
	sum := sha256.Sum256(body)
	if tail != "sha256 "+hex.EncodeToString(sum[:]) {
		return nil, fmt.Errorf("contract: book: checksum mismatch (corrupt or edited)")
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if !sc.Scan() {
		return nil, fmt.Errorf("contract: book: empty")
	}
	head := strings.Fields(sc.Text())
	if len(head) != 4 || head[0] != BookMagic {
		return nil, fmt.Errorf("contract: book: not a book file (header %q)", sc.Text())
	}
	if v, _ := strconv.Atoi(head[1]); v != BookVersion {
		return nil, fmt.Errorf("contract: book: version %s, this build reads %d", head[1], BookVersion)
	}
	if head[2] != info.Name {
		return nil, fmt.Errorf("contract: book: for %s, not %s", head[2], info.Name)
	}
	if ev, _ := strconv.Atoi(head[3]); ev != info.EncoderVersion {
		return nil, fmt.Errorf("contract: book: encoder version %s, the game's is %d", head[3], info.EncoderVersion)
	}
	b := NewBook(info)
	for line := 2; sc.Scan(); line++ {
		pos, mv, ok := strings.Cut(sc.Text(), "\t")
		var c Coords
		if n, err := fmt.Sscanf(mv, "%d %d %d %d", &c[0], &c[1], &c[2], &c[3]); !ok || err != nil || n != 4 {
			return nil, fmt.Errorf("contract: book line %d: want 'position<TAB>x1 y1 x2 y2', got %q", line, sc.Text())
		}
		b.Moves[pos] = c
	}
	return b, sc.Err()
}

// BuildBook fills a book for both seats: for seat s, every position with s to move that can
// arise within plies plies of the start when s follows the book and the other side plays
// any legal move gets search's move. Each position is searched once; progress (if not nil)
// is called after each search. The game needs a judge notation (the book's moves are judge
// coordinates).
func BuildBook[P Position[P, M], M Move](d *Def[P, M], plies int, search func(p P) M, progress func(done int, p P, m M)) (*Book, error) {
	if d.Judge == nil {
		return nil, fmt.Errorf("contract: %s has no judge notation for a book", d.Info.Name)
	}
	b := NewBook(d.Info)
	var buf []M
	for seat := range d.Info.Players() {
		level := []P{d.Start()}
		for ply := 0; ply < plies && len(level) > 0; ply++ {
			var next []P
			seen := map[string]bool{}
			add := func(p P) {
				if k := p.String(); !p.Terminal() && !seen[k] {
					seen[k] = true
					next = append(next, p)
				}
			}
			for _, p := range level {
				if p.ToMove() != seat {
					buf = p.LegalMoves(buf[:0])
					for _, m := range buf {
						add(p.Apply(m))
					}
					continue
				}
				k := p.String()
				var m M
				if c, ok := b.Moves[k]; ok {
					var err error
					if m, err = d.Judge.Move(p, c); err != nil {
						return nil, err
					}
				} else {
					m = search(p)
					b.Moves[k] = d.Judge.Coords(p, m)
					if progress != nil {
						progress(len(b.Moves), p, m)
					}
				}
				add(p.Apply(m))
			}
			level = next
		}
	}
	return b, nil
}
