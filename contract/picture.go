package contract

// Picture is a position drawn for people (the replay viewer): a grid of cells, each with the
// game's letter for what stands there, the player who owns it, and for games whose pieces
// have them, hit points and energy. It holds no types of the game's own.
type Picture struct {
	Rows, Cols int
	// Cells holds one letter per cell, row-major from the top left: the game's own letters
	// (Bacteria War "O"/"X", Catch The Mouse "R"/"C"/"N", Slime "1".."4", Petri Dish "o"
	// for a living cell and "c" for a corpse); '.' is an empty cell.
	Cells string
	// Owner is each cell's player (-1: none), row-major.
	Owner []int8
	// HP and Energy of each cell (Petri Dish); nil for games without them.
	HP, Energy []int16
	// Counts is each player's pieces (or cells held).
	Counts []int
	// Actor is the cell that acts next in games where single pieces take turns (Petri Dish),
	// -1 otherwise.
	Actor int
	// ToMove is the player to move (-1 when the game is over).
	ToMove int
}

// Pictured is a State that can draw itself (a game whose Def has a Picture).
type Pictured interface {
	Picture() (Picture, bool)
}

// GridPicture is the Picture of a rows x cols board whose cell (r, c) holds letter and
// owner at(r, c) ('.' and -1 for an empty cell): the counts are the owned cells per player;
// toMove is the player to move unless the game is over.
func GridPicture(rows, cols, players, toMove int, over bool, at func(r, c int) (byte, int)) Picture {
	if over {
		toMove = -1
	}
	cells := make([]byte, rows*cols)
	owner := make([]int8, rows*cols)
	counts := make([]int, players)
	for r := range rows {
		for c := range cols {
			ch, pl := at(r, c)
			cells[r*cols+c], owner[r*cols+c] = ch, int8(pl)
			if pl >= 0 && pl < players {
				counts[pl]++
			}
		}
	}
	return Picture{Rows: rows, Cols: cols, Cells: string(cells), Owner: owner, Counts: counts, Actor: -1, ToMove: toMove}
}
