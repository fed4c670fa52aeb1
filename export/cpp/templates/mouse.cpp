// @@HEADER@@
//
// Catch The Mouse agent: Colony's alpha-beta engine (colony/game/mouse/mouseab: the searcher
// of colony/engine/alphabeta with Catch The Mouse's hooks, the prover of colony/game/mouse/solve
// in front) ported to C++17 from the template export/cpp/templates/mouse.cpp, move for move, so
// that a fixed-depth or fixed-node search finds the same move, score and node count as Go's.
// The exporter fills in the engine's numbers (evaluation tables, search configuration, prover
// and clock settings) from the Go side; the parity tests of colony/export/cpp
// (catch_the_mouse_test.go) check that both sides search the same trees.
//
// Build: g++ -std=c++17 -O2 Main.cpp   (standard library only)
// Run:   ./a.out              the judge protocol on stdin/stdout (the mice are FIRST)
//        ./a.out --parity     the parity tests' command mode (see parity() below)
//        ./a.out --bench      nodes per second (the Go side: go test -run x -bench Search
//                             ./game/mouse/mouseab)

// @@COMMON@@

// ---- constants from the Go side (export/cpp/catch_the_mouse.go) ----
namespace params {
// @@PARAMS@@
}  // namespace params

namespace mouse {

// SearchConfig is the engine's configuration of colony/engine/alphabeta (colony::Searcher's C).
struct SearchConfig {
// @@SEARCH@@
};

using u64 = uint64_t;
using i64 = int64_t;
using i32 = int32_t;

using colony::Limits;
using colony::now_ns;
using ns = i64;  // durations in nanoseconds, as Go's time.Duration
constexpr ns Millisecond = colony::kMillisecond;

inline int tz64(u64 b) { return __builtin_ctzll(b); }  // b != 0
inline int lz64(u64 b) { return b ? __builtin_clzll(b) : 64; }
// pc64 counts bits without the popcnt instruction, which -O2 alone does not assume (the
// builtin would call libgcc).
inline int pc64(u64 b) {
  b = b - ((b >> 1) & 0x5555555555555555ULL);
  b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return int((b * 0x0101010101010101ULL) >> 56);
}

// zeroed allocates n zeroed T with calloc: the system hands out zeroed pages as they are first
// touched (as Go's make does), so a large table costs no time up front. Tables live as long as
// the program.
template <class T>
T* zeroed(size_t n) {
  T* p = static_cast<T*>(std::calloc(n, sizeof(T)));
  if (!p) {
    std::fprintf(stderr, "agent: out of memory\n");
    std::exit(1);
  }
  return p;
}

// ---- the game (game/mouse) ----

constexpr int Rows = 7, Cols = 11, NumCells = Rows * Cols, InnerCells = 5 * Cols;
constexpr u64 InnerFull = (u64(1) << InnerCells) - 1;
constexpr uint16_t RowFull = (1 << Cols) - 1;
constexpr int MaxCats = 4, MaxNadori = 1, maxQueen = 22;
constexpr int MaxMoves = MaxCats * maxQueen + 8;
constexpr int Mice = 0, Team = 1;

using Move = uint16_t;
constexpr Move teamBit = 1 << 14;
constexpr Move Pass = 0xFFFF, NoMove = 0xFFFE;

inline int moveFrom(Move m) { return m & 127; }
inline int moveTo(Move m) { return (m >> 7) & 127; }
inline bool isTeam(Move m) { return (m & teamBit) != 0; }
inline Move newMove(int side, int from, int to) { return Move(from | to << 7 | (side & 1) << 14); }

enum { dirE, dirS, dirSE, dirSW, dirW, dirN, dirNW, dirNE, numDirs };
const int dirDelta[numDirs][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}, {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}};

u64 rays[numDirs][InnerCells];
u64 kingAtt[InnerCells];
u64 zMouse[NumCells], zCat[NumCells], zNad[NumCells], zSide;
u64 pathBelowTab[Rows][Cols];
int8_t kingDistTab[InnerCells][InnerCells];
u64 innerRowMask[Rows];

void initTables() {
  for (int i = 0; i < InnerCells; i++) {
    int r = i / Cols, c = i % Cols;
    for (int d = 0; d < numDirs; d++) {
      int dr = dirDelta[d][0], dc = dirDelta[d][1];
      for (int r2 = r + dr, c2 = c + dc; r2 >= 0 && r2 < 5 && c2 >= 0 && c2 < Cols; r2 += dr, c2 += dc)
        rays[d][i] |= u64(1) << (r2 * Cols + c2);
      int r2 = r + dr, c2 = c + dc;
      if (r2 >= 0 && r2 < 5 && c2 >= 0 && c2 < Cols) kingAtt[i] |= u64(1) << (r2 * Cols + c2);
    }
  }
  u64 s = 0x4D6F7573654B6579ULL;  // "MouseKey"
  for (int sq = 0; sq < NumCells; sq++) {
    zMouse[sq] = colony::sm_next(s);
    zCat[sq] = colony::sm_next(s);
    zNad[sq] = colony::sm_next(s);
  }
  zSide = colony::sm_next(s);
  for (int r = 0; r < Rows; r++)
    for (int c = 0; c < Cols; c++)
      for (int rr = r + 1; rr <= 5; rr++) pathBelowTab[r][c] |= u64(1) << ((rr - 1) * Cols + c);
  for (int a = 0; a < InnerCells; a++)
    for (int b = 0; b < InnerCells; b++) {
      int dr = a / Cols - b / Cols, dc = a % Cols - b % Cols;
      kingDistTab[a][b] = int8_t(std::max(std::max(dr, -dr), std::max(dc, -dc)));
    }
  for (int r = 1; r <= 5; r++) innerRowMask[r] = u64(RowFull) << ((r - 1) * Cols);
}

u64 queenAttacks(int i, u64 occ) {
  u64 a = 0, r, b;
  r = rays[dirE][i];
  if ((b = r & occ)) r ^= rays[dirE][tz64(b)];
  a |= r;
  r = rays[dirS][i];
  if ((b = r & occ)) r ^= rays[dirS][tz64(b)];
  a |= r;
  r = rays[dirSE][i];
  if ((b = r & occ)) r ^= rays[dirSE][tz64(b)];
  a |= r;
  r = rays[dirSW][i];
  if ((b = r & occ)) r ^= rays[dirSW][tz64(b)];
  a |= r;
  r = rays[dirW][i];
  if ((b = r & occ)) r ^= rays[dirW][63 - lz64(b)];
  a |= r;
  r = rays[dirN][i];
  if ((b = r & occ)) r ^= rays[dirN][63 - lz64(b)];
  a |= r;
  r = rays[dirNW][i];
  if ((b = r & occ)) r ^= rays[dirNW][63 - lz64(b)];
  a |= r;
  r = rays[dirNE][i];
  if ((b = r & occ)) r ^= rays[dirNE][63 - lz64(b)];
  return a | r;
}

struct Position {
  u64 mice = 0, cats = 0, nad = 0;  // inner bitboards (rows 2..6)
  u64 hash = 0;
  uint16_t top = 0, bot = 0;  // mice on row 1 and row 7
  uint8_t side = 0;

  u64 computeHash() const {
    u64 h = 0;
    for (uint16_t b = top; b; b &= b - 1) h ^= zMouse[tz64(b)];
    for (uint16_t b = bot; b; b &= b - 1) h ^= zMouse[6 * Cols + tz64(b)];
    for (u64 b = mice; b; b &= b - 1) h ^= zMouse[Cols + tz64(b)];
    for (u64 b = cats; b; b &= b - 1) h ^= zCat[Cols + tz64(b)];
    for (u64 b = nad; b; b &= b - 1) h ^= zNad[Cols + tz64(b)];
    if (side == Team) h ^= zSide;
    return h;
  }
  static Position make(uint16_t top, u64 mice, u64 cats, u64 nad, uint16_t bot, int side) {
    Position p;
    p.mice = mice, p.cats = cats, p.nad = nad, p.top = top, p.bot = bot, p.side = uint8_t(side);
    p.hash = p.computeHash();
    return p;
  }
  static Position start() {
    auto in = [](int r, int c) { return u64(1) << ((r - 2) * Cols + c - 1); };
    return make(RowFull, 0, in(6, 4) | in(6, 5) | in(6, 7) | in(6, 8), in(6, 6), 0, Mice);
  }
  bool valid() const {
    if (((mice | cats | nad) & ~InnerFull) || ((top | bot) & ~RowFull) || side > 1) return false;
    if ((mice & cats) || (mice & nad) || (cats & nad)) return false;
    if (pc64(cats) > MaxCats || pc64(nad) > MaxNadori) return false;
    if (top & bot) return false;
    uint16_t seen = top | bot;
    for (int r = 0; r < 5; r++) {
      uint16_t row = uint16_t((mice >> (r * Cols)) & RowFull);
      if (seen & row) return false;
      seen |= row;
    }
    return true;
  }
  u64 occupied() const { return mice | cats | nad; }
  int numMice() const { return pc64(top) + pc64(mice) + pc64(bot); }
  int toMove() const { return side; }
  void mouseMovers(u64& t, u64& i) const {
    u64 occ = mice | cats | nad;
    t = u64(top) & ~occ;
    i = mice & ~(occ >> Cols);
  }
  bool terminal() const {
    if (bot != 0 || (top == 0 && mice == 0)) return true;
    if (side == Mice) {
      u64 t, i;
      mouseMovers(t, i);
      return (t | i) == 0;
    }
    return false;
  }
  int winner() const {
    if (bot != 0) return Mice;
    if (terminal()) return Team;
    return -1;
  }
  int legalMoves(Move* dst) const {
    int n = 0;
    if (bot != 0) return 0;
    if (side == Mice) {
      u64 t, in;
      mouseMovers(t, in);
      for (u64 b = t; b; b &= b - 1) {
        int c = tz64(b);
        dst[n++] = Move(c | (c + Cols) << 7);
      }
      for (u64 b = in; b; b &= b - 1) {
        int sq = tz64(b) + Cols;
        dst[n++] = Move(sq | (sq + Cols) << 7);
      }
      return n;
    }
    if (top == 0 && mice == 0) return 0;
    u64 occ = mice | cats | nad;
    for (u64 b = nad; b; b &= b - 1) {
      int i = tz64(b);
      for (u64 t = kingAtt[i] & ~(cats | nad); t; t &= t - 1)
        dst[n++] = Move((i + Cols) | (tz64(t) + Cols) << 7 | teamBit);
    }
    for (u64 b = cats; b; b &= b - 1) {
      int i = tz64(b);
      for (u64 t = queenAttacks(i, occ) & ~occ; t; t &= t - 1)
        dst[n++] = Move((i + Cols) | (tz64(t) + Cols) << 7 | teamBit);
    }
    if (n == 0) dst[n++] = Pass;
    return n;
  }
  int countMoves() const {
    if (bot != 0) return 0;
    if (side == Mice) {
      u64 t, i;
      mouseMovers(t, i);
      return pc64(t) + pc64(i);
    }
    if (top == 0 && mice == 0) return 0;
    u64 occ = mice | cats | nad;
    int n = 0;
    for (u64 b = nad; b; b &= b - 1) n += pc64(kingAtt[tz64(b)] & ~(cats | nad));
    for (u64 b = cats; b; b &= b - 1) n += pc64(queenAttacks(tz64(b), occ) & ~occ);
    return n == 0 ? 1 : n;
  }
  bool isLegal(Move m) const {
    Move buf[MaxMoves];
    int n = legalMoves(buf);
    for (int i = 0; i < n; i++)
      if (buf[i] == m) return true;
    return false;
  }
  Position apply(Move m) const {
    Position p = *this;
    if (m != Pass) {
      int from = moveFrom(m), to = moveTo(m);
      if (p.side == Mice) {
        p.hash ^= zMouse[from] ^ zMouse[to];
        if (from < Cols)
          p.top &= uint16_t(~(1u << from));
        else
          p.mice &= ~(u64(1) << (from - Cols));
        if (to >= 6 * Cols)
          p.bot |= uint16_t(1u << (to - 6 * Cols));
        else
          p.mice |= u64(1) << (to - Cols);
      } else {
        u64 fb = u64(1) << (from - Cols), tb = u64(1) << (to - Cols);
        if (p.cats & fb) {
          p.cats ^= fb | tb;
          p.hash ^= zCat[from] ^ zCat[to];
        } else {
          p.nad ^= fb | tb;
          p.hash ^= zNad[from] ^ zNad[to];
          if (p.mice & tb) {
            p.mice &= ~tb;
            p.hash ^= zMouse[to];
          }
        }
      }
    }
    p.side ^= 1;
    p.hash ^= zSide;
    return p;
  }
  // mouseRows: per column the 0-based row of its mouse, -1 for none.
  void mouseRows(int8_t rows[Cols]) const {
    for (int c = 0; c < Cols; c++) rows[c] = -1;
    for (uint16_t b = top; b; b &= b - 1) rows[tz64(b)] = 0;
    for (uint16_t b = bot; b; b &= b - 1) rows[tz64(b)] = Rows - 1;
    for (u64 b = mice; b; b &= b - 1) {
      int i = tz64(b);
      rows[i % Cols] = int8_t(i / Cols + 1);
    }
  }
  int mouseStepsLeft() const {
    int8_t rows[Cols];
    mouseRows(rows);
    int n = 0;
    for (int c = 0; c < Cols; c++)
      if (rows[c] >= 0) n += Rows - 1 - rows[c];
    return n;
  }
  int movesLeft() const {
    int8_t rows[Cols];
    mouseRows(rows);
    int made = 0, left = 0;
    for (int c = 0; c < Cols; c++) {
      if (rows[c] >= 0) {
        made += rows[c];
        left += Rows - 1 - rows[c];
      } else {
        made += 2;
      }
    }
    int n = std::max(30 - made, int(params::movesLeftFloor));
    return std::max(1, std::min(n, left));
  }
  uint16_t freeMice() const {
    u64 occ = occupied();
    int8_t rows[Cols];
    mouseRows(rows);
    uint16_t fr = 0;
    for (int c = 0; c < Cols; c++) {
      int r = rows[c];
      if (r < 0 || r >= Rows - 1) continue;
      if ((occ & pathBelowTab[r][c]) == 0) fr |= uint16_t(1u << c);
    }
    return fr;
  }
  int at(int row, int col) const {  // 0 empty, 1 mouse, 2 cat, 3 Nadori
    if (row == 0) return (top >> col) & 1;
    if (row == Rows - 1) return (bot >> col) & 1;
    int i = (row - 1) * Cols + col;
    if ((mice >> i) & 1) return 1;
    if ((cats >> i) & 1) return 2;
    if ((nad >> i) & 1) return 3;
    return 0;
  }
  std::string str() const {
    std::string s;
    for (int r = 0; r < Rows; r++) {
      if (r) s += '/';
      for (int c = 0; c < Cols; c++) s += ".RCN"[at(r, c)];
    }
    s += ' ';
    s += "RN"[side & 1];
    return s;
  }
  Position withToMove(int player) const { return make(top, mice, cats, nad, bot, player & 1); }
};

// parseBoard reads "rows side" (ParseBoard and Valid of game/mouse).
bool parseBoard(const std::string& rowsField, const std::string& sideField, Position& out) {
  std::vector<std::string> rows;
  size_t start = 0;
  for (;;) {
    size_t k = rowsField.find('/', start);
    rows.push_back(rowsField.substr(start, k == std::string::npos ? std::string::npos : k - start));
    if (k == std::string::npos) break;
    start = k + 1;
  }
  if (int(rows.size()) != Rows) return false;
  uint16_t top = 0, bot = 0;
  u64 mice = 0, cats = 0, nad = 0;
  for (int r = 0; r < Rows; r++) {
    if (int(rows[r].size()) != Cols) return false;
    for (int c = 0; c < Cols; c++) {
      char ch = rows[r][c];
      if (ch >= 'a' && ch <= 'z') ch = char(ch - ('a' - 'A'));
      bool inner = r >= 1 && r <= 5;
      u64 i = u64(1) << std::max((r - 1) * Cols + c, 0);
      if (ch == '.' || ch == '-') {
      } else if (ch == 'R' && r == 0) {
        top |= uint16_t(1u << c);
      } else if (ch == 'R' && r == Rows - 1) {
        bot |= uint16_t(1u << c);
      } else if (ch == 'R') {
        mice |= i;
      } else if ((ch == 'C' || ch == 'N') && !inner) {
        return false;
      } else if (ch == 'C') {
        cats |= i;
      } else if (ch == 'N') {
        nad |= i;
      } else {
        return false;
      }
    }
  }
  int side;
  if (sideField == "R" || sideField == "r")
    side = Mice;
  else if (sideField == "N" || sideField == "n")
    side = Team;
  else
    return false;
  out = Position::make(top, mice, cats, nad, bot, side);
  return out.valid();
}

uint64_t perft(const Position& p, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return uint64_t(p.countMoves());
  Move buf[MaxMoves];
  int n = p.legalMoves(buf);
  uint64_t sum = 0;
  for (int i = 0; i < n; i++) sum += perft(p.apply(buf[i]), depth - 1);
  return sum;
}

// ---- the evaluation (game/mouse/mouseab eval.go) ----

constexpr int none = 99;  // a race's slack when no piece can stop the mouse

inline int kingDist(int a, int b) { return kingDistTab[a][b]; }
inline int raceOff(bool teamToMove) { return teamToMove ? 0 : -1; }

struct Race {
  bool fine = false;
  u64 occ = 0, seeAll = 0, seeFree = 0, landAll = 0, landFree = 0;
  bool haveCats = false, haveFree = false;
  int nadSq = -1, off = 0;

  void slack(int r, int c, int& sound, int& practical) const {
    sound = none, practical = none;
    for (int j = 5 - r; j >= 1; j--) {
      int budget = j + off;
      if (budget < 1 || (fine && practical <= budget - 3 && sound < none)) break;
      int cell = (r + j - 1) * Cols + c;
      if (fine && haveCats) {
        int dAll = 3, dFree = 4;
        if ((seeAll >> cell) & 1) dAll = 1;
        if ((seeFree >> cell) & 1) dFree = 1;
        if ((dAll > 1 || dFree > 1) && budget >= 2) {
          u64 lines = queenAttacks(cell, occ);
          if (dAll > 1 && (lines & landAll)) dAll = 2;
          if (dFree > 1 && haveFree && (lines & landFree)) dFree = 2;
        }
        if (!haveFree && dFree > 1) dFree = none;
        if (dFree > 3) {
          dFree = 3;
          if (!haveFree) dFree = none;
        }
        if (dAll <= budget) sound = std::min(sound, budget - dAll);
        practical = std::min(practical, std::min(budget - dFree, budget - dAll - 1));
      } else if (fine) {
      } else if ((seeAll >> cell) & 1) {
        sound = std::min(sound, budget - 1);
      } else if (haveCats && budget >= 2) {
        sound = std::min(sound, budget - 2);
      }
      if (nadSq >= 0) {
        int kd = kingDist(nadSq, cell);
        if (kd <= budget) {
          sound = std::min(sound, budget - kd);
          practical = std::min(practical, budget - kd);
        }
      }
    }
    if (nadSq >= 0) {
      for (int t = 1; t <= 6 - r + off; t++) {
        int row = r + t - 1 - off;
        if (row < 1 || row > 5) continue;
        int kd = kingDist(nadSq, (row - 1) * Cols + c);
        if (kd <= t) {
          sound = std::min(sound, t - kd);
          practical = std::min(practical, t - kd);
        }
      }
    }
  }
};

i32 evalForTeam(const Position& p) {
  using namespace params;
  u64 occ = p.occupied();
  u64 cats = p.cats, nad = p.nad;
  uint16_t top = p.top;
  u64 inner = p.mice;
  u64 committed = ((inner << Cols) | u64(top)) & InnerFull & (cats | nad);
  u64 seeAll = 0, seeFree = 0;
  for (u64 b = cats; b; b &= b - 1) {
    int i = tz64(b);
    u64 a = queenAttacks(i, occ);
    seeAll |= a;
    if (((committed >> i) & 1) == 0) seeFree |= a;
  }
  u64 landAll = seeAll & ~occ, landFree = seeFree & ~occ;
  bool haveCats = cats != 0, haveFree = (cats & ~committed) != 0;
  int nadSq = nad ? tz64(nad) : -1;
  bool teamToMove = p.toMove() == Team;
  Race rc;
  rc.fine = true, rc.occ = occ, rc.seeAll = seeAll, rc.seeFree = seeFree, rc.landAll = landAll;
  rc.landFree = landFree, rc.haveCats = haveCats, rc.haveFree = haveFree, rc.nadSq = nadSq;
  rc.off = raceOff(teamToMove);

  i32 score = 0;
  int n = 0, nfree = 0, urgent = 0, bestWin = 0;
  int8_t rows[Cols];
  p.mouseRows(rows);
  for (int c = 0; c < Cols; c++) {
    int r = rows[c];
    if (r < 0) continue;
    n++;
    if (nadSq >= 0 && r >= 1) {
      int d = std::min(kingDist(nadSq, (r - 1) * Cols + c), 7);
      score += i32(nadFar[r]) * i32(d) - i32(nadNear[d]);
      if (r < 5 && ((occ >> (r * Cols + c)) & 1)) score -= i32(nadNearStuck[d]);
      if (d == 1 && teamToMove) score -= 60;
    }
    if (occ & pathBelowTab[r][c]) {
      score += i32(advBlocked[r]);
      continue;
    }
    nfree++;
    score += i32(advFree[r]);
    int need = 6 - r;
    int sound, practical;
    rc.slack(r, c, sound, practical);
    if (sound == none) {
      if (bestWin == 0 || need < bestWin) bestWin = need;
    } else if (practical <= 0) {
      urgent++;
      score += i32(threatBonus[r]);
    } else if (practical == 1) {
      score += i32(threatBonus[r]) / 2;
    } else if (practical == 2) {
      score += i32(threatBonus[r]) / 4;
    }
  }
  if (n == 0) return -i32(winish);
  score += i32(mouseValue) * i32(n - 6);
  if (bestWin > 0) return i32(winish) - 100 * i32(bestWin) + score / 16;
  if (urgent >= 2) {
    score += 150 * i32(urgent - 1);
    if (teamToMove) score += 100;
  }
  int spare = pc64((cats | nad) & ~committed);
  if (nfree > spare) score += i32(excessValue) * i32(nfree - spare);
  score -= i32(coverValue) * i32(pc64(seeFree & (innerRowMask[4] | innerRowMask[5])));
  int mob = pc64(u64(top) & ~occ) + pc64(inner & ~(occ >> Cols));
  score -= i32(lowMobility[std::min(mob, 4)]);
  return score;
}

i32 evalForMice(const Position& p) {
  using namespace params;
  u64 occ = p.occupied();
  u64 cats = p.cats, nad = p.nad;
  u64 catSee = 0;
  for (u64 b = cats; b; b &= b - 1) catSee |= queenAttacks(tz64(b), occ);
  int nadSq = nad ? tz64(nad) : -1;
  bool teamToMove = p.toMove() == Team;
  Race rc;
  rc.occ = occ, rc.seeAll = catSee, rc.haveCats = cats != 0, rc.nadSq = nadSq, rc.off = raceOff(teamToMove);

  i32 score = 0;
  int n = 0, urgent = 0, bestWin = 0;
  u64 nadReach = nadSq >= 0 ? kingAtt[nadSq] : 0;
  int8_t rows[Cols];
  p.mouseRows(rows);
  for (int c = 0; c < Cols; c++) {
    int r = rows[c];
    if (r < 0) continue;
    n++;
    score += i32(mouseValue);
    if (occ & pathBelowTab[r][c]) {
      score += i32(advBlocked[r]);
      continue;
    }
    score += i32(advFree[r]);
    int need = 6 - r;
    int slack, practical;
    rc.slack(r, c, slack, practical);
    if (slack == none) {
      if (bestWin == 0 || need < bestWin) bestWin = need;
    } else if (slack == 0) {
      urgent++;
      score += i32(threatBonus[r]);
    } else if (slack == 1) {
      score += i32(threatBonus[r]) / 3;
    }
  }
  if (n == 0) return -i32(winish);
  if (bestWin > 0) return i32(winish) - 100 * i32(bestWin) + score / 10;
  if (urgent >= 2) {
    score += 150 * i32(urgent - 1);
    if (teamToMove) score += 100;
  }
  uint16_t top = p.top;
  u64 inner = p.mice;
  int mob = pc64(u64(top) & ~occ) + pc64(inner & ~(occ >> Cols));
  switch (mob) {
    case 0: score -= 300; break;
    case 1: score -= 120; break;
    case 2: score -= 50; break;
    case 3: score -= 15; break;
  }
  int inReach = pc64(nadReach & inner);
  if (inReach > 0) {
    if (teamToMove)
      score -= 70 + 15 * i32(inReach - 1);
    else
      score -= 15 * i32(inReach);
  }
  return score;
}

// evaluate scores p (not terminal) for the side to move in the profile of the engine's role.
i32 evaluate(const Position& p, bool miceRole) {
  i32 v = miceRole ? evalForMice(p) : evalForTeam(p);
  return p.toMove() == Team ? -v : v;
}

// ---- the search hooks (game/mouse/mouseab's hooks on colony::Searcher) ----

using C = SearchConfig;

constexpr u64 row5Mice = u64(RowFull) << (4 * Cols);

i32 terminalScore(const Position& p, int ply) {
  if (p.winner() == p.toMove()) return C::WIN_SCORE - i32(ply);
  return -C::WIN_SCORE + i32(ply);
}

// Orderer scores the moves of one node before killers and the table move.
struct Orderer {
  int side;
  int8_t rows[Cols];
  uint16_t free;
  u64 mice, nad, reach = 0;

  explicit Orderer(const Position& p) {
    side = p.toMove();
    p.mouseRows(rows);
    mice = p.mice, nad = p.nad;
    if (nad) reach = kingAtt[tz64(nad)];
    free = p.freeMice();
  }
  i32 key(Move m) const {
    int from = moveFrom(m), to = moveTo(m);
    int tr = to / Cols, tc = to % Cols;
    if (side == Team) {
      int ti = to - Cols;
      if ((mice >> ti) & 1) return 100000 + 1000 * i32(tr);
      i32 k = 0;
      int r = rows[tc];
      if (r >= 0 && r < tr && ((free >> tc) & 1)) k = 2000 + 700 * i32(r) - 150 * i32(tr - r - 1);
      if ((nad >> (from - Cols)) & 1) k += 50;
      return k;
    }
    if (tr == Rows - 1) return 1 << 20;
    i32 k = 100 * i32(tr);
    if ((free >> tc) & 1) k += 400 + 150 * i32(tr);
    if ((reach >> (to - Cols)) & 1) k -= 3000;
    return k;
  }
};

struct EvalEntry {
  u64 key;
  i32 v;
};

// Hooks are Catch The Mouse's part of the searcher (colony::Searcher's G; mouseab's hooks):
// no incremental evaluator, no pruning (Play is Apply, Root does nothing).
struct Hooks {
  using Pos = Position;
  using Move = mouse::Move;
  static constexpr Move kNoMove = NoMove, kPass = Pass;
  static constexpr int kMaxMoves = MaxMoves;

  bool miceRole = false;       // the engine plays the mice: their evaluation profile
  EvalEntry* evals = nullptr;  // the evaluation cache, nullptr until the first search

  static u64 hash(const Pos& p) { return p.hash; }
  static int to_move(const Pos& p) { return p.toMove(); }

  // enter scores a finished game, prunes by mate distance and answers a mouse on row 6: with
  // the mice to move it wins at once; with the team to move the node is searched a ply deeper.
  static bool enter(const Pos& p, int ply, int& depth, i32& alpha, i32& beta, i32& score) {
    if (p.terminal()) {
      score = terminalScore(p, ply);
      return true;
    }
    alpha = std::max(alpha, -C::WIN_SCORE + i32(ply));
    beta = std::min(beta, C::WIN_SCORE - i32(ply + 1));
    if (alpha >= beta) {
      score = alpha;
      return true;
    }
    if (p.mice & row5Mice) {
      if (p.toMove() == Mice) {
        score = C::WIN_SCORE - i32(ply + 1);
        return true;
      }
      depth++;
    }
    return false;
  }

  // key is the position hash: no turn count, no repetition.
  static u64 key(const Pos& p) { return p.hash; }

  // leaf is the race evaluation, in the profile of the engine's role.
  i32 leaf(const Pos& p, int) {
    bool m = miceRole;
    if (!evals) return evaluate(p, m);
    u64 key = p.hash;
    if (m) key ^= u64(params::profileKey);
    EvalEntry& e = evals[key & ((u64(1) << params::evalCacheBits) - 1)];
    if (e.key != key) e.key = key, e.v = evaluate(p, m);
    return e.v;
  }

  // moves generates the moves with the orderer's static values.
  static int moves(const Pos& p, Move* mv, colony::Order<Move, C>& o, int& side) {
    int n = p.legalMoves(mv);
    side = p.toMove();
    if (n == 0 || mv[0] == Pass) return n;
    Orderer ord(p);
    o.side(ord.side);
    for (int i = 0; i < n; i++) o.keys[i] = o.key(mv[i], ord.key(mv[i]));
    side = ord.side;
    return n;
  }

  // stuck: a team that must pass is searched on.
  static bool stuck(const Pos&, int, i32&) { return false; }
  static void root(const Pos&) {}
  static Pos play(const Pos& p, Move m, int) { return p.apply(m); }
};

struct Proof {
  Move move = NoMove;
  bool win = false;
  int depth = 0;
  i64 nodes = 0;
};

// ---- the prover (game/mouse/solve) ----

constexpr int solveMaxPly = int(params::solveMaxPly);
constexpr u64 row5 = u64(RowFull) << (4 * Cols);
const u64 attSalt[2] = {0, 0x9E3779B97F4A7C15ULL};

struct SolveEntry {
  u64 key;
  Move move;
  uint8_t win, fail;
  uint8_t pad[4];
};

int minNeed(const Position& p) {
  if (p.mice) return 6 - (63 - lz64(p.mice)) / Cols - 1;
  if (p.top) return 6;
  return 99;
}

int lowerBound(const Position& p, int att) {
  bool teamToMove = p.toMove() == Team;
  if (att == Mice) {
    if (teamToMove) return 2 * minNeed(p);
    u64 occ = p.occupied();
    u64 inner = p.mice, top = u64(p.top);
    u64 stuck = inner & (occ >> Cols);
    int n = 99;
    u64 fr = inner & ~stuck;
    if (fr) n = 6 - (63 - lz64(fr)) / Cols - 1;
    if (stuck) n = std::min(n, 6 - (63 - lz64(stuck)) / Cols - 1 + 1);
    if (top) {
      int need = 6;
      if ((top & ~occ) == 0) need = 7;
      n = std::min(n, need);
    }
    return 2 * n - 1;
  }
  int k = p.numMice() - pc64(p.cats | p.nad);
  if (k <= 0) return teamToMove ? 1 : 2;
  if (p.nad == 0) return 1 << 10;
  int ni = tz64(p.nad);
  int nr = ni / Cols + 1, nc = ni % Cols;
  int dist = 99;
  int8_t rows[Cols];
  p.mouseRows(rows);
  for (int c = 0; c < Cols; c++)
    if (rows[c] >= 0) dist = std::min(dist, std::max(std::abs(int(rows[c]) - nr), std::abs(c - nc)));
  if (!teamToMove) dist = std::max(dist - 1, 1);
  int first = (dist - 1 + 1) / 2 + 1;
  int lb = 2 * (first + k - 1) - 1;
  if (!teamToMove) lb++;
  return lb;
}

bool hintLegal(const Position& p, Move m) {
  if (m == Pass || m >= NoMove || isTeam(m) != (p.toMove() == Team)) return false;
  int from = moveFrom(m), to = moveTo(m);
  u64 occ = p.occupied();
  if (!isTeam(m)) {
    if (to != from + Cols || to >= NumCells) return false;
    if (from < Cols) return ((p.top >> from) & 1) && ((occ >> (to - Cols)) & 1) == 0;
    int fi = from - Cols;
    return ((p.mice >> fi) & 1) && (to >= 6 * Cols || ((occ >> (to - Cols)) & 1) == 0);
  }
  if (from < Cols || to < Cols || from >= 6 * Cols || to >= 6 * Cols) return false;
  int fi = from - Cols, ti = to - Cols;
  if ((p.cats >> fi) & 1) return ((queenAttacks(fi, occ) & ~occ) >> ti) & 1;
  if ((p.nad >> fi) & 1) return ((kingAtt[fi] & ~(p.cats | p.nad)) >> ti) & 1;
  return false;
}

struct SolveResult {
  int winner = -1, depth = 0;
  bool exact = false, complete = true;
  Move move = NoMove;
  i64 nodes = 0;
};

class Solver {
 public:
  SolveEntry* tt;
  size_t size;
  u64 mask = 0;
  i64 nodes = 0, nodeLimit = 0;
  int att = 0;
  bool hasDeadline = false;
  i64 deadline = 0;
  bool stop = false;
  Move moves[solveMaxPly][MaxMoves];
  i32 keys[solveMaxPly][MaxMoves];
  static constexpr int bucket = 4;

  explicit Solver(int mb) {
    mb = std::max(mb, 1);
    u64 n = 1;
    while (n * 2 * bucket * 16 <= u64(mb) << 20) n *= 2;
    size = n * bucket;
    tt = zeroed<SolveEntry>(size);
    mask = n - 1;
  }
  void clear() { std::memset(static_cast<void*>(tt), 0, size * sizeof(SolveEntry)); }
  SolveEntry* probe(u64 key) {
    SolveEntry* b = &tt[(key & mask) * bucket];
    for (int i = 0; i < bucket; i++)
      if (b[i].key == key) return &b[i];
    return nullptr;
  }
  SolveEntry* slot(u64 key) {
    SolveEntry* b = &tt[(key & mask) * bucket];
    int victim = 0, worst = 1 << 30;
    for (int i = 0; i < bucket; i++) {
      SolveEntry* e = &b[i];
      if (e->key == key) return e;
      if (e->key == 0 && e->win == 0 && e->fail == 0) {
        *e = SolveEntry{key, 0, 0, 0, {0, 0, 0, 0}};
        return e;
      }
      int v = std::max(e->win, e->fail);
      if (v < worst) worst = v, victim = i;
    }
    b[victim] = SolveEntry{key, 0, 0, 0, {0, 0, 0, 0}};
    return &b[victim];
  }
  bool wins(const Position& p, int a, int d, bool& ok) {
    att = a;
    stop = false;
    bool w = search(p, d, 0);
    ok = !stop;
    return w && !stop;
  }
  void setLimits(i64 n, bool hasDl, i64 dl) {
    nodes = 0, nodeLimit = n, hasDeadline = hasDl, deadline = dl, stop = false;
  }
  bool search(const Position& p, int d, int ply) {
    nodes++;
    if ((nodes & 1023) == 0 && hasDeadline && now_ns() > deadline) stop = true;
    if (nodeLimit > 0 && nodes >= nodeLimit) stop = true;
    if (stop) return false;
    if (p.terminal()) return p.winner() == att;
    int side = p.toMove();
    if (d <= 0 || ply >= solveMaxPly - 1 || lowerBound(p, att) > d) return false;
    if (side == Mice && (p.mice & row5)) return att == Mice;
    u64 key = p.hash ^ attSalt[att];
    if (key == 0) key = 1;
    Move hint = NoMove;
    bool useTT = d >= int(params::solveTTMinDepth);
    if (useTT) {
      if (SolveEntry* e = probe(key)) {
        if (e->win != 0 && int(e->win) <= d) return true;
        if (int(e->fail) >= d) return false;
        hint = e->move;
      }
    }
    bool tried = false;
    if (hint != NoMove && hintLegal(p, hint)) {
      tried = true;
      bool w = search(p.apply(hint), d - 1, ply + 1);
      if (stop) return false;
      if (w == (side == att)) {
        record(key, d, w, side == att, hint);
        return w;
      }
    }
    Move* mv = moves[ply];
    int n = p.legalMoves(mv);
    if (side == Team) {
      u64 r5 = p.mice & row5;
      if (r5) {
        if (pc64(r5) > 1) return att == Mice;
        int k = 0;
        for (int i = 0; i < n; i++) {
          Move m = mv[i];
          if (m != Pass && (u64(1) << (moveTo(m) - Cols)) == r5) mv[k++] = m;
        }
        n = k;
        if (n == 0) return att == Mice;
      }
    }
    i32* ks = keys[ply];
    order(p, mv, n, hint, ks);
    bool result = side != att;
    Move best = NoMove;
    for (int i = 0; i < n; i++) {
      int bi = i;
      for (int j = i + 1; j < n; j++)
        if (ks[j] < ks[bi]) bi = j;
      std::swap(ks[i], ks[bi]);
      Move m = mv[ks[i] & 0xFF];
      if (m == hint && tried) continue;
      bool w = search(p.apply(m), d - 1, ply + 1);
      if (stop) return false;
      if (side == att && w) {
        result = true, best = m;
        break;
      }
      if (side != att && !w) {
        result = false, best = m;
        break;
      }
    }
    if (useTT) record(key, d, result, side == att, best);
    return result;
  }
  void record(u64 key, int d, bool win, bool attToMove, Move m) {
    SolveEntry* e = slot(key);
    if (win) {
      if (e->win == 0 || int(e->win) > d) e->win = uint8_t(std::min(d, 255));
      if (attToMove) e->move = m;
    } else {
      e->fail = uint8_t(std::min(std::max(int(e->fail), d), 255));
      if (!attToMove) e->move = m;
    }
  }
  void order(const Position& p, const Move* mv, int n, Move hint, i32* ks) const {
    int8_t rows[Cols];
    p.mouseRows(rows);
    uint16_t fr = p.freeMice();
    int freeRow[Cols];
    for (int c = 0; c < Cols; c++) {
      freeRow[c] = -1;
      if ((fr >> c) & 1) freeRow[c] = rows[c];
    }
    u64 mice = p.mice;
    for (int i = 0; i < n; i++) {
      Move m = mv[i];
      i32 k = 0;
      if (m == hint) {
        k = 1 << 20;
      } else if (m == Pass) {
      } else if (!isTeam(m)) {
        int tr = moveTo(m) / Cols, tc = moveTo(m) % Cols;
        k = 10 * i32(tr);
        if (freeRow[tc] >= 0) k += 100 + 10 * i32(tr);
      } else {
        int to = moveTo(m);
        int tr = to / Cols, tc = to % Cols;
        if ((mice >> (to - Cols)) & 1) {
          k = 5000 + 100 * i32(tr);
        } else if (freeRow[tc] >= 0 && freeRow[tc] < tr) {
          int r = freeRow[tc];
          k = 1000 + 100 * i32(r) - 10 * i32(tr - r - 1);
        } else if (rows[tc] >= 0 && int(rows[tc]) == tr - 1) {
          k = 500;
        }
      }
      ks[i] = i32(uint32_t(-k) << 8) | i32(i);
    }
  }

  // solve deepens from depth 1 to maxDepth (0: the end of the game), wins of the side to move
  // only (Limits.MeOnly), within a node budget and a time (0: none).
  SolveResult solve(const Position& p, int maxDepth, i64 nodeBudget, ns t) {
    i64 start = now_ns();
    bool hasDl = t > 0;
    i64 dl = start + t;
    setLimits(nodeBudget, hasDl, dl);
    int full = 2 * p.mouseStepsLeft() + 1;
    int maxD = full;
    if (maxDepth > 0) maxD = std::min(maxDepth, full);
    SolveResult res;
    if (p.terminal()) {
      res.winner = p.winner(), res.exact = true, res.nodes = 1;
      return res;
    }
    int me = p.toMove();
    for (int d = 1; d <= maxD; d++) {
      bool ok;
      bool w = wins(p, me, d, ok);
      if (!ok) {
        res.complete = false;
        res.nodes = nodes;
        return res;
      }
      if (w) {
        res.winner = me, res.depth = d, res.exact = true;
        res.move = rootMove(p, d);
        res.nodes = nodes;
        return res;
      }
      res.depth = d;
    }
    res.exact = res.depth >= full;
    res.nodes = nodes;
    return res;
  }
  Move rootMove(const Position& p, int d) {
    att = p.toMove();
    u64 key = p.hash ^ attSalt[att];
    if (key == 0) key = 1;
    if (SolveEntry* e = probe(key)) {
      if (e->move != NoMove && e->move != 0 && p.isLegal(e->move) && winsAfter(p, e->move, d)) return e->move;
    }
    Move buf[MaxMoves];
    int n = p.legalMoves(buf);
    i64 n0 = nodes;
    for (int i = 0; i < n; i++) {
      if (winsAfter(p, buf[i], d)) return buf[i];
      if (nodes - n0 > 3 * i64(params::rootMoveNodes)) break;
    }
    return NoMove;
  }
  bool winsAfter(const Position& p, Move m, int d) {
    i64 lim = nodeLimit, n0 = nodes;
    bool hasDl = hasDeadline;
    i64 dl = deadline;
    nodeLimit = nodes + i64(params::rootMoveNodes), hasDeadline = false;
    Position c = p.apply(m);
    bool w;
    if (c.terminal()) {
      w = c.winner() == att;
    } else {
      stop = false;
      bool r = search(c, d - 1, 1);
      w = r && !stop;
    }
    nodeLimit = lim, hasDeadline = hasDl, deadline = dl;
    nodes = n0 + std::min(nodes - n0, i64(params::rootMoveNodes));
    return w;
  }
};

// Prover is the solver in front of the search: forced wins, proven losses ruled out.
class Prover {
 public:
  int mb;
  Solver* s = nullptr;
  explicit Prover(int m) : mb(m) {}
  void newGame() {
    if (s) s->clear();
  }
  static bool reaches(const Position& pos) {
    return !pos.terminal() && pos.mouseStepsLeft() <= int(params::proveFrom);
  }
  Proof proveDepth(const Position& pos, int depth, i64 nodes, ns t, std::vector<Move>& veto) {
    Proof none;
    if (!reaches(pos) || (nodes <= 0 && t <= 0)) return none;
    if (!s) s = new Solver(mb);
    i64 start = now_ns();
    i64 limNodes = nodes / 3;
    if (nodes > 0) limNodes = std::max(limNodes, i64(1));
    SolveResult r = s->solve(pos, depth, limNodes, t / 3);
    if (r.winner == pos.toMove() && r.move != NoMove) {
      Proof pf;
      pf.move = r.move, pf.win = true, pf.depth = r.depth, pf.nodes = r.nodes;
      return pf;
    }
    ns left = 0;
    if (t > 0) left = std::max(t - (now_ns() - start), Millisecond);
    i64 rest = 0;
    if (nodes > 0) rest = std::max(nodes - r.nodes, i64(1));
    i64 n = vetoLosing(pos, rest, left, veto);
    Proof pf;
    pf.nodes = r.nodes + n;
    return pf;
  }
  i64 vetoLosing(const Position& pos, i64 nodes, ns t, std::vector<Move>& veto) {
    s->setLimits(std::max(nodes, i64(0)), t > 0, now_ns() + t);
    int opp = 1 - pos.toMove();
    Move moves[MaxMoves];
    int n = pos.legalMoves(moves);
    if (n < 2) return 0;
    int lost[MaxMoves] = {0};
    int nlost = 0;
    int maxD = 2 * pos.mouseStepsLeft() + 1;
    for (int d = 1; d <= maxD && nlost < n; d++) {
      for (int i = 0; i < n; i++) {
        if (lost[i] != 0) continue;
        Position c = pos.apply(moves[i]);
        bool w, ok;
        if (c.terminal()) {
          w = c.winner() == opp, ok = true;
        } else {
          w = s->wins(c, opp, d - 1, ok);
        }
        if (!ok) {
          d = maxD;
          break;
        }
        if (w) {
          lost[i] = d;
          nlost++;
        }
      }
      if (nlost == n) {
        for (int i = 0; i < n; i++)
          if (lost[i] == d) lost[i] = 0;
        break;
      }
    }
    for (int i = 0; i < n; i++)
      if (lost[i] != 0) veto.push_back(moves[i]);
    return s->nodes;
  }
};

// budget is the engine's Budget: the game cannot last longer than the mouse steps left, and the
// clock is shared among the moves MovesLeft expects.
colony::Budget budget(const Limits& lim, const Position& pos) {
  return colony::budget(lim, 0, 0, pos.mouseStepsLeft() + 1, pos.movesLeft(), C::RESERVE_DIV);
}

// Engine is the alpha-beta engine of game/mouse/mouseab, prover included.
class Engine {
 public:
  int solveMB = int(params::defaultSolveMB);
  colony::AlphaBeta<Hooks, C> ab{colony::SearchOptions{int(params::defaultHashMB), 0, false, false}};
  Prover* pr = nullptr;
  std::vector<Move> veto;

  void newGame() {
    ab.new_game();
    if (pr) pr->newGame();
  }
  // ready sets the evaluation profile for the side to move of pos and allocates the evaluation
  // cache on first use.
  void ready(const Position& pos) {
    ab.game.miceRole = pos.toMove() == Mice;
    if (!ab.game.evals) ab.game.evals = zeroed<EvalEntry>(size_t(1) << params::evalCacheBits);
  }
  Move bestMove(const Position& pos, const Limits& lim) {
    i64 start = now_ns();
    colony::Budget b = budget(lim, pos);
    ns soft = b.soft, hard = b.hard;
    int depth = b.depth;
    i64 nodes = b.nodes;
    veto.clear();
    i64 proverNodes = 0;
    if (proverOn(pos, soft, nodes)) {
      i64 pn = nodes * 3 / 10 * i64(params::proverSpeed);
      ns pt = soft * 3 / 10;
      Proof r = pr->proveDepth(pos, depth, pn, pt, veto);
      if (r.win) {
        ab.set_stats(r.depth, C::WIN_SCORE - i32(r.depth), r.nodes);
        return r.move;
      }
      if (nodes > 0) nodes = std::max(nodes - r.nodes / i64(params::proverSpeed), i64(1));
      proverNodes = r.nodes;
    }
    ready(pos);
    Move m = ab.search(pos, start, soft, hard, depth, nodes, 0, veto);
    if (proverNodes > 0) ab.last_nodes += proverNodes;
    return m;
  }
  bool proverOn(const Position& pos, ns soft, i64 nodes) {
    if (solveMB < 0 || !Prover::reaches(pos) || (soft <= 0 && nodes <= 0)) return false;
    if (!pr) pr = new Prover(solveMB);
    return true;
  }
};

// ---- the judge protocol: colony::JudgeSession with Catch The Mouse's notation ----

// judgeMove converts judge coordinates into a legal move of p (Position.JudgeMove).
bool judgeMove(const Position& p, const colony::Coords& c, Move& m) {
  int r1 = c[0], c1 = c[1], r2 = c[2], c2 = c[3];
  if (r1 == -1 && c1 == -1 && r2 == -1 && c2 == -1) {
    m = Pass;
    return p.isLegal(Pass);
  }
  if (r1 < 1 || r1 > Rows || r2 < 1 || r2 > Rows || c1 < 1 || c1 > Cols || c2 < 1 || c2 > Cols) return false;
  m = newMove(p.side, (r1 - 1) * Cols + c1 - 1, (r2 - 1) * Cols + c2 - 1);
  return p.isLegal(m);
}

// force plays judge coordinates whatever the rules say when they make geometric sense
// (Position.Force).
bool force(const Position& p, const colony::Coords& c, Position& out) {
  int r1 = c[0], c1 = c[1], r2 = c[2], c2 = c[3];
  if (r1 < 1 || r1 > Rows || r2 < 1 || r2 > Rows || c1 < 1 || c1 > Cols || c2 < 1 || c2 > Cols) return false;
  int from = (r1 - 1) * Cols + c1 - 1, to = (r2 - 1) * Cols + c2 - 1;
  if (p.side == Mice) {
    if (to != from + Cols || p.at(r1 - 1, c1 - 1) != 1 || p.at(r2 - 1, c2 - 1) != 0) return false;
    out = p.apply(Move(from | (from + Cols) << 7));
    return true;
  }
  if (r1 < 2 || r1 > 6 || r2 < 2 || r2 > 6 || from == to) return false;
  u64 fb = u64(1) << (from - Cols), tb = u64(1) << (to - Cols);
  if (((p.cats | p.nad) & fb) == 0 || ((p.cats | p.nad) & tb) != 0) return false;
  Position q = p;
  q.mice &= ~tb;
  if (q.cats & fb)
    q.cats ^= fb | tb;
  else
    q.nad ^= fb | tb;
  out = Position::make(q.top, q.mice, q.cats, q.nad, q.bot, Mice);
  return true;
}

// parseBoardLine reads the board notation "rows side" (the POSITION extension).
bool parseBoardLine(const std::string& board, Position& p) {
  std::vector<std::string> f = colony::fields(board);
  return f.size() == 2 && parseBoard(f[0], f[1], p);
}

// Game is the session's adapter (colony::JudgeSession): the mice are FIRST, the team SECOND.
struct Game {
  using Pos = Position;
  using Move = mouse::Move;
  Engine* eng;

  Pos start() { return Position::start(); }
  bool parse_board(const std::string& s, Pos& p) { return parseBoardLine(s, p); }
  std::string str(const Pos& p) { return p.str(); }
  int to_move(const Pos& p) { return p.toMove(); }
  int num_players() { return 2; }
  bool terminal(const Pos& p) { return p.terminal(); }
  Pos with_to_move(const Pos& p, int pl) { return p.withToMove(pl); }
  Pos playable(const Pos& p) { return p; }
  Pos apply(const Pos& p, Move m) { return p.apply(m); }
  Pos pass(const Pos& p) { return p.withToMove(p.toMove() ^ 1); }
  bool judge_move(const Pos& p, const colony::Coords& c, Move& m) { return judgeMove(p, c, m); }
  bool force(const Pos& p, const colony::Coords& c, Pos& out) { return mouse::force(p, c, out); }
  colony::Coords coords(const Pos&, Move m) {
    if (m >= NoMove) return colony::kPassCoords;
    int from = moveFrom(m), to = moveTo(m);
    return {from / Cols + 1, from % Cols + 1, to / Cols + 1, to % Cols + 1};
  }
  // choose is the engine's move; an illegal one (never seen) is replaced by the first legal move.
  Move choose(const Pos& p, const Limits& lim) {
    Move m = eng->bestMove(p, lim);
    if (!p.isLegal(m)) {
      Move buf[MaxMoves];
      p.legalMoves(buf);
      std::fprintf(stderr, "agent: engine answered an illegal move: playing the first legal one\n");
      m = buf[0];
    }
    return m;
  }
  void new_game() { eng->newGame(); }
};

// ---- the parity mode: test commands on stdin, one answer line each ----
//
//	perft D ROWS SIDE    the perft count
//	eval ROWS SIDE       hash, the mice's and the team's evaluation, mouse steps and moves left
//	budget MS ROWS SIDE  soft and hard time (ns) and depth on a whole-game clock of MS ms
//	seed S               the seed of the root tie-breaks (answer: ok)
//	newgame              a new game: table, statistics and prover table cleared (answer: ok)
//	go NODES DEPTH ROWS SIDE  best move, depth, score, nodes of a search within the limits
int parity() {
  Engine eng;
  colony::LineReader in(stdin);
  std::string line;
  while (in.next(line)) {
    std::vector<std::string> f = colony::fields(line);
    if (f.empty()) continue;
    Position p;
    auto board = [&](size_t i) { return f.size() == i + 2 && parseBoard(f[i], f[i + 1], p); };
    if (f[0] == "seed" && f.size() == 2) {
      eng.ab.opts.seed = std::strtoull(f[1].c_str(), nullptr, 10);
      std::printf("ok\n");
    } else if (f[0] == "newgame") {
      eng.newGame();
      std::printf("ok\n");
    } else if (f[0] == "perft" && f.size() > 1 && board(2)) {
      std::printf("%llu\n", (unsigned long long)perft(p, std::atoi(f[1].c_str())));
    } else if (f[0] == "eval" && board(1)) {
      std::printf("%llu %d %d %d %d\n", (unsigned long long)p.hash, evaluate(p, true), evaluate(p, false),
                  p.mouseStepsLeft(), p.movesLeft());
    } else if (f[0] == "budget" && f.size() > 1 && board(2)) {
      Limits lim;
      lim.my_time = std::atoll(f[1].c_str()) * Millisecond;
      colony::Budget b = budget(lim, p);
      std::printf("%lld %lld %d\n", (long long)b.soft, (long long)b.hard, b.depth);
    } else if (f[0] == "go" && f.size() > 2 && board(3)) {
      Limits lim;
      lim.nodes = std::atoll(f[1].c_str());
      lim.depth = std::atoi(f[2].c_str());
      Move m = eng.bestMove(p, lim);
      std::printf("%d %d %d %lld\n", int(m), eng.ab.last_depth, eng.ab.last_score, (long long)eng.ab.last_nodes);
    } else {
      std::printf("error %s\n", line.c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}

// ---- nodes per second (game/mouse/mouseab BenchmarkSearch) ----

// bench searches BenchmarkSearch's position to depth 7 three times, each from a new game, with
// the default engine (seed 0), and prints the nodes per second and per CPU second.
int bench() {
  Position p;
  parseBoardLine(".RRR....R.R/R...R.RRCR./.....R...../.........../....N.C..../C.........C/........... N", p);
  Engine eng;
  Limits lim;
  lim.depth = 7;
  i64 nodes = 0;
  double c0 = colony::cpu_seconds();
  i64 t0 = now_ns();
  for (int i = 0; i < 3; i++) {
    eng.newGame();
    Move m = eng.bestMove(p, lim);
    nodes += eng.ab.last_nodes;
    std::printf("depth %d  move %d  score %d  nodes %lld\n", eng.ab.last_depth, int(m), eng.ab.last_score,
                (long long)eng.ab.last_nodes);
  }
  double wall = double(now_ns() - t0) / 1e9, cpu = colony::cpu_seconds() - c0;
  std::printf("total nodes %lld  %.3f s  %.0f nodes/s  %.0f nodes/cpu-s\n", (long long)nodes, wall,
              nodes / std::max(wall, 1e-9), nodes / std::max(cpu, 1e-9));
  return 0;
}

}  // namespace mouse

int main(int argc, char** argv) {
  mouse::initTables();
  if (argc > 1 && std::string(argv[1]) == "--parity") return mouse::parity();
  if (argc > 1 && std::string(argv[1]) == "--bench") return mouse::bench();
  mouse::Engine eng;
  eng.ab.opts.seed = params::seed;
  mouse::Game g{&eng};
  colony::JudgeSession<mouse::Game> s(g);
  return s.run();
}
