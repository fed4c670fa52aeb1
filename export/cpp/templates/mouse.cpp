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

namespace mouse {

using colony::clz;
using colony::ctz;
using colony::Limits;
using colony::now_ns;
using colony::popcnt;

// ---- constants from the Go side (export/cpp/catch_the_mouse.go) ----
// @@PARAMS@@

// SearchConfig is the engine's configuration of colony/engine/alphabeta (colony::Searcher's C).
struct SearchConfig {
    // @@SEARCH@@
};

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

constexpr int kRows = 7, kCols = 11, kNumCells = kRows * kCols, kInnerCells = 5 * kCols;
constexpr uint64_t kInnerFull = (uint64_t(1) << kInnerCells) - 1;
constexpr uint16_t kRowFull = (1 << kCols) - 1;
constexpr int kMaxCats = 4, kMaxNadori = 1, kMaxQueen = 22;
constexpr int kMaxMoves = kMaxCats * kMaxQueen + 8;
constexpr int kMice = 0, kTeam = 1;

using Move = uint16_t;
constexpr Move kTeamBit = 1 << 14;
constexpr Move kPass = 0xFFFF, kNoMove = 0xFFFE;

inline int move_from(Move m) { return m & 127; }
inline int move_to(Move m) { return (m >> 7) & 127; }
inline bool is_team(Move m) { return (m & kTeamBit) != 0; }
inline Move new_move(int side, int from, int to) { return Move(from | to << 7 | (side & 1) << 14); }

enum { kDirE, kDirS, kDirSE, kDirSW, kDirW, kDirN, kDirNW, kDirNE, kNumDirs };
const int kDirDelta[kNumDirs][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}, {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}};

uint64_t RAYS[kNumDirs][kInnerCells];
uint64_t KING_ATT[kInnerCells];
uint64_t Z_MOUSE[kNumCells], Z_CAT[kNumCells], Z_NAD[kNumCells], Z_SIDE;
uint64_t PATH_BELOW[kRows][kCols];
int8_t KING_DIST[kInnerCells][kInnerCells];
uint64_t INNER_ROW_MASK[kRows];

void init_tables() {
    for (int i = 0; i < kInnerCells; i++) {
        int r = i / kCols, c = i % kCols;
        for (int d = 0; d < kNumDirs; d++) {
            int dr = kDirDelta[d][0], dc = kDirDelta[d][1];
            for (int r2 = r + dr, c2 = c + dc; r2 >= 0 && r2 < 5 && c2 >= 0 && c2 < kCols; r2 += dr, c2 += dc)
                RAYS[d][i] |= uint64_t(1) << (r2 * kCols + c2);
            int r2 = r + dr, c2 = c + dc;
            if (r2 >= 0 && r2 < 5 && c2 >= 0 && c2 < kCols) KING_ATT[i] |= uint64_t(1) << (r2 * kCols + c2);
        }
    }
    uint64_t s = 0x4D6F7573654B6579ULL;  // "MouseKey"
    for (int sq = 0; sq < kNumCells; sq++) {
        Z_MOUSE[sq] = colony::sm_next(s);
        Z_CAT[sq] = colony::sm_next(s);
        Z_NAD[sq] = colony::sm_next(s);
    }
    Z_SIDE = colony::sm_next(s);
    for (int r = 0; r < kRows; r++)
        for (int c = 0; c < kCols; c++)
            for (int rr = r + 1; rr <= 5; rr++) PATH_BELOW[r][c] |= uint64_t(1) << ((rr - 1) * kCols + c);
    for (int a = 0; a < kInnerCells; a++)
        for (int b = 0; b < kInnerCells; b++) {
            int dr = a / kCols - b / kCols, dc = a % kCols - b % kCols;
            KING_DIST[a][b] = int8_t(std::max(std::max(dr, -dr), std::max(dc, -dc)));
        }
    for (int r = 1; r <= 5; r++) INNER_ROW_MASK[r] = uint64_t(kRowFull) << ((r - 1) * kCols);
}

uint64_t queen_attacks(int i, uint64_t occ) {
    uint64_t a = 0, r, b;
    r = RAYS[kDirE][i];
    if ((b = r & occ)) r ^= RAYS[kDirE][ctz(b)];
    a |= r;
    r = RAYS[kDirS][i];
    if ((b = r & occ)) r ^= RAYS[kDirS][ctz(b)];
    a |= r;
    r = RAYS[kDirSE][i];
    if ((b = r & occ)) r ^= RAYS[kDirSE][ctz(b)];
    a |= r;
    r = RAYS[kDirSW][i];
    if ((b = r & occ)) r ^= RAYS[kDirSW][ctz(b)];
    a |= r;
    r = RAYS[kDirW][i];
    if ((b = r & occ)) r ^= RAYS[kDirW][63 - clz(b)];
    a |= r;
    r = RAYS[kDirN][i];
    if ((b = r & occ)) r ^= RAYS[kDirN][63 - clz(b)];
    a |= r;
    r = RAYS[kDirNW][i];
    if ((b = r & occ)) r ^= RAYS[kDirNW][63 - clz(b)];
    a |= r;
    r = RAYS[kDirNE][i];
    if ((b = r & occ)) r ^= RAYS[kDirNE][63 - clz(b)];
    return a | r;
}

struct Position {
    uint64_t mice = 0, cats = 0, nad = 0;  // inner bitboards (rows 2..6)
    uint64_t hash = 0;
    uint16_t top = 0, bot = 0;  // mice on row 1 and row 7
    uint8_t side = 0;

    uint64_t compute_hash() const {
        uint64_t h = 0;
        for (uint16_t b = top; b; b &= b - 1) h ^= Z_MOUSE[ctz(b)];
        for (uint16_t b = bot; b; b &= b - 1) h ^= Z_MOUSE[6 * kCols + ctz(b)];
        for (uint64_t b = mice; b; b &= b - 1) h ^= Z_MOUSE[kCols + ctz(b)];
        for (uint64_t b = cats; b; b &= b - 1) h ^= Z_CAT[kCols + ctz(b)];
        for (uint64_t b = nad; b; b &= b - 1) h ^= Z_NAD[kCols + ctz(b)];
        if (side == kTeam) h ^= Z_SIDE;
        return h;
    }
    static Position make(uint16_t top, uint64_t mice, uint64_t cats, uint64_t nad, uint16_t bot, int side) {
        Position p;
        p.mice = mice, p.cats = cats, p.nad = nad, p.top = top, p.bot = bot, p.side = uint8_t(side);
        p.hash = p.compute_hash();
        return p;
    }
    static Position start() {
        auto in = [](int r, int c) { return uint64_t(1) << ((r - 2) * kCols + c - 1); };
        return make(kRowFull, 0, in(6, 4) | in(6, 5) | in(6, 7) | in(6, 8), in(6, 6), 0, kMice);
    }
    bool valid() const {
        if (((mice | cats | nad) & ~kInnerFull) || ((top | bot) & ~kRowFull) || side > 1) return false;
        if ((mice & cats) || (mice & nad) || (cats & nad)) return false;
        if (popcnt(cats) > kMaxCats || popcnt(nad) > kMaxNadori) return false;
        if (top & bot) return false;
        uint16_t seen = top | bot;
        for (int r = 0; r < 5; r++) {
            uint16_t row = uint16_t((mice >> (r * kCols)) & kRowFull);
            if (seen & row) return false;
            seen |= row;
        }
        return true;
    }
    uint64_t occupied() const { return mice | cats | nad; }
    int num_mice() const { return popcnt(top) + popcnt(mice) + popcnt(bot); }
    int to_move() const { return side; }
    void mouse_movers(uint64_t& t, uint64_t& i) const {
        uint64_t occ = mice | cats | nad;
        t = uint64_t(top) & ~occ;
        i = mice & ~(occ >> kCols);
    }
    bool terminal() const {
        if (bot != 0 || (top == 0 && mice == 0)) return true;
        if (side == kMice) {
            uint64_t t, i;
            mouse_movers(t, i);
            return (t | i) == 0;
        }
        return false;
    }
    int winner() const {
        if (bot != 0) return kMice;
        if (terminal()) return kTeam;
        return -1;
    }
    int legal_moves(Move* dst) const {
        int n = 0;
        if (bot != 0) return 0;
        if (side == kMice) {
            uint64_t t, in;
            mouse_movers(t, in);
            for (uint64_t b = t; b; b &= b - 1) {
                int c = ctz(b);
                dst[n++] = Move(c | (c + kCols) << 7);
            }
            for (uint64_t b = in; b; b &= b - 1) {
                int sq = ctz(b) + kCols;
                dst[n++] = Move(sq | (sq + kCols) << 7);
            }
            return n;
        }
        if (top == 0 && mice == 0) return 0;
        uint64_t occ = mice | cats | nad;
        for (uint64_t b = nad; b; b &= b - 1) {
            int i = ctz(b);
            for (uint64_t t = KING_ATT[i] & ~(cats | nad); t; t &= t - 1)
                dst[n++] = Move((i + kCols) | (ctz(t) + kCols) << 7 | kTeamBit);
        }
        for (uint64_t b = cats; b; b &= b - 1) {
            int i = ctz(b);
            for (uint64_t t = queen_attacks(i, occ) & ~occ; t; t &= t - 1)
                dst[n++] = Move((i + kCols) | (ctz(t) + kCols) << 7 | kTeamBit);
        }
        if (n == 0) dst[n++] = kPass;
        return n;
    }
    int count_moves() const {
        if (bot != 0) return 0;
        if (side == kMice) {
            uint64_t t, i;
            mouse_movers(t, i);
            return popcnt(t) + popcnt(i);
        }
        if (top == 0 && mice == 0) return 0;
        uint64_t occ = mice | cats | nad;
        int n = 0;
        for (uint64_t b = nad; b; b &= b - 1) n += popcnt(KING_ATT[ctz(b)] & ~(cats | nad));
        for (uint64_t b = cats; b; b &= b - 1) n += popcnt(queen_attacks(ctz(b), occ) & ~occ);
        return n == 0 ? 1 : n;
    }
    bool is_legal(Move m) const {
        Move buf[kMaxMoves];
        int n = legal_moves(buf);
        for (int i = 0; i < n; i++)
            if (buf[i] == m) return true;
        return false;
    }
    Position apply(Move m) const {
        Position p = *this;
        if (m != kPass) {
            int from = move_from(m), to = move_to(m);
            if (p.side == kMice) {
                p.hash ^= Z_MOUSE[from] ^ Z_MOUSE[to];
                if (from < kCols) p.top &= uint16_t(~(1u << from));
                else p.mice &= ~(uint64_t(1) << (from - kCols));
                if (to >= 6 * kCols) p.bot |= uint16_t(1u << (to - 6 * kCols));
                else p.mice |= uint64_t(1) << (to - kCols);
            } else {
                uint64_t fb = uint64_t(1) << (from - kCols), tb = uint64_t(1) << (to - kCols);
                if (p.cats & fb) {
                    p.cats ^= fb | tb;
                    p.hash ^= Z_CAT[from] ^ Z_CAT[to];
                } else {
                    p.nad ^= fb | tb;
                    p.hash ^= Z_NAD[from] ^ Z_NAD[to];
                    if (p.mice & tb) {
                        p.mice &= ~tb;
                        p.hash ^= Z_MOUSE[to];
                    }
                }
            }
        }
        p.side ^= 1;
        p.hash ^= Z_SIDE;
        return p;
    }
    // mouse_rows: per column the 0-based row of its mouse, -1 for none.
    void mouse_rows(int8_t rows[kCols]) const {
        for (int c = 0; c < kCols; c++) rows[c] = -1;
        for (uint16_t b = top; b; b &= b - 1) rows[ctz(b)] = 0;
        for (uint16_t b = bot; b; b &= b - 1) rows[ctz(b)] = kRows - 1;
        for (uint64_t b = mice; b; b &= b - 1) {
            int i = ctz(b);
            rows[i % kCols] = int8_t(i / kCols + 1);
        }
    }
    int mouse_steps_left() const {
        int8_t rows[kCols];
        mouse_rows(rows);
        int n = 0;
        for (int c = 0; c < kCols; c++)
            if (rows[c] >= 0) n += kRows - 1 - rows[c];
        return n;
    }
    int moves_left() const {
        int8_t rows[kCols];
        mouse_rows(rows);
        int made = 0, left = 0;
        for (int c = 0; c < kCols; c++) {
            if (rows[c] >= 0) {
                made += rows[c];
                left += kRows - 1 - rows[c];
            } else {
                made += 2;
            }
        }
        int n = std::max(30 - made, int(MOVES_LEFT_FLOOR));
        return std::max(1, std::min(n, left));
    }
    uint16_t free_mice() const {
        uint64_t occ = occupied();
        int8_t rows[kCols];
        mouse_rows(rows);
        uint16_t fr = 0;
        for (int c = 0; c < kCols; c++) {
            int r = rows[c];
            if (r < 0 || r >= kRows - 1) continue;
            if ((occ & PATH_BELOW[r][c]) == 0) fr |= uint16_t(1u << c);
        }
        return fr;
    }
    int at(int row, int col) const {  // 0 empty, 1 mouse, 2 cat, 3 Nadori
        if (row == 0) return (top >> col) & 1;
        if (row == kRows - 1) return (bot >> col) & 1;
        int i = (row - 1) * kCols + col;
        if ((mice >> i) & 1) return 1;
        if ((cats >> i) & 1) return 2;
        if ((nad >> i) & 1) return 3;
        return 0;
    }
    std::string str() const {
        std::string s;
        for (int r = 0; r < kRows; r++) {
            if (r) s += '/';
            for (int c = 0; c < kCols; c++) s += ".RCN"[at(r, c)];
        }
        s += ' ';
        s += "RN"[side & 1];
        return s;
    }
    Position with_to_move(int player) const { return make(top, mice, cats, nad, bot, player & 1); }
};

// parse_board reads "rows side" (ParseBoard and Valid of game/mouse).
bool parse_board(const std::string& rows_field, const std::string& side_field, Position& out) {
    std::vector<std::string> rows;
    size_t start = 0;
    for (;;) {
        size_t k = rows_field.find('/', start);
        rows.push_back(rows_field.substr(start, k == std::string::npos ? std::string::npos : k - start));
        if (k == std::string::npos) break;
        start = k + 1;
    }
    if (int(rows.size()) != kRows) return false;
    uint16_t top = 0, bot = 0;
    uint64_t mice = 0, cats = 0, nad = 0;
    for (int r = 0; r < kRows; r++) {
        if (int(rows[r].size()) != kCols) return false;
        for (int c = 0; c < kCols; c++) {
            char ch = rows[r][c];
            if (ch >= 'a' && ch <= 'z') ch = char(ch - ('a' - 'A'));
            bool inner = r >= 1 && r <= 5;
            uint64_t i = uint64_t(1) << std::max((r - 1) * kCols + c, 0);
            if (ch == '.' || ch == '-') {
            } else if (ch == 'R' && r == 0) {
                top |= uint16_t(1u << c);
            } else if (ch == 'R' && r == kRows - 1) {
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
    if (side_field == "R" || side_field == "r") side = kMice;
    else if (side_field == "N" || side_field == "n") side = kTeam;
    else return false;
    out = Position::make(top, mice, cats, nad, bot, side);
    return out.valid();
}

uint64_t perft(const Position& p, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return uint64_t(p.count_moves());
    Move buf[kMaxMoves];
    int n = p.legal_moves(buf);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) sum += perft(p.apply(buf[i]), depth - 1);
    return sum;
}

// ---- the evaluation (game/mouse/mouseab eval.go) ----

constexpr int kNone = 99;  // a race's slack when no piece can stop the mouse

inline int king_dist(int a, int b) { return KING_DIST[a][b]; }
inline int race_off(bool team_to_move) { return team_to_move ? 0 : -1; }

struct Race {
    bool fine = false;
    uint64_t occ = 0, see_all = 0, see_free = 0, land_all = 0, land_free = 0;
    bool have_cats = false, have_free = false;
    int nad_sq = -1, off = 0;

    void slack(int r, int c, int& sound, int& practical) const {
        sound = kNone, practical = kNone;
        for (int j = 5 - r; j >= 1; j--) {
            int budget = j + off;
            if (budget < 1 || (fine && practical <= budget - 3 && sound < kNone)) break;
            int cell = (r + j - 1) * kCols + c;
            if (fine && have_cats) {
                int d_all = 3, d_free = 4;
                if ((see_all >> cell) & 1) d_all = 1;
                if ((see_free >> cell) & 1) d_free = 1;
                if ((d_all > 1 || d_free > 1) && budget >= 2) {
                    uint64_t lines = queen_attacks(cell, occ);
                    if (d_all > 1 && (lines & land_all)) d_all = 2;
                    if (d_free > 1 && have_free && (lines & land_free)) d_free = 2;
                }
                if (!have_free && d_free > 1) d_free = kNone;
                if (d_free > 3) {
                    d_free = 3;
                    if (!have_free) d_free = kNone;
                }
                if (d_all <= budget) sound = std::min(sound, budget - d_all);
                practical = std::min(practical, std::min(budget - d_free, budget - d_all - 1));
            } else if (fine) {
            } else if ((see_all >> cell) & 1) {
                sound = std::min(sound, budget - 1);
            } else if (have_cats && budget >= 2) {
                sound = std::min(sound, budget - 2);
            }
            if (nad_sq >= 0) {
                int kd = king_dist(nad_sq, cell);
                if (kd <= budget) {
                    sound = std::min(sound, budget - kd);
                    practical = std::min(practical, budget - kd);
                }
            }
        }
        if (nad_sq >= 0) {
            for (int t = 1; t <= 6 - r + off; t++) {
                int row = r + t - 1 - off;
                if (row < 1 || row > 5) continue;
                int kd = king_dist(nad_sq, (row - 1) * kCols + c);
                if (kd <= t) {
                    sound = std::min(sound, t - kd);
                    practical = std::min(practical, t - kd);
                }
            }
        }
    }
};

int32_t eval_for_team(const Position& p) {
    uint64_t occ = p.occupied();
    uint64_t cats = p.cats, nad = p.nad;
    uint16_t top = p.top;
    uint64_t inner = p.mice;
    uint64_t committed = ((inner << kCols) | uint64_t(top)) & kInnerFull & (cats | nad);
    uint64_t see_all = 0, see_free = 0;
    for (uint64_t b = cats; b; b &= b - 1) {
        int i = ctz(b);
        uint64_t a = queen_attacks(i, occ);
        see_all |= a;
        if (((committed >> i) & 1) == 0) see_free |= a;
    }
    uint64_t land_all = see_all & ~occ, land_free = see_free & ~occ;
    bool have_cats = cats != 0, have_free = (cats & ~committed) != 0;
    int nad_sq = nad ? ctz(nad) : -1;
    bool team_to_move = p.to_move() == kTeam;
    Race rc;
    rc.fine = true, rc.occ = occ, rc.see_all = see_all, rc.see_free = see_free, rc.land_all = land_all;
    rc.land_free = land_free, rc.have_cats = have_cats, rc.have_free = have_free, rc.nad_sq = nad_sq;
    rc.off = race_off(team_to_move);

    int32_t score = 0;
    int n = 0, nfree = 0, urgent = 0, best_win = 0;
    int8_t rows[kCols];
    p.mouse_rows(rows);
    for (int c = 0; c < kCols; c++) {
        int r = rows[c];
        if (r < 0) continue;
        n++;
        if (nad_sq >= 0 && r >= 1) {
            int d = std::min(king_dist(nad_sq, (r - 1) * kCols + c), 7);
            score += int32_t(NAD_FAR[r]) * int32_t(d) - int32_t(NAD_NEAR[d]);
            if (r < 5 && ((occ >> (r * kCols + c)) & 1)) score -= int32_t(NAD_NEAR_STUCK[d]);
            if (d == 1 && team_to_move) score -= 60;
        }
        if (occ & PATH_BELOW[r][c]) {
            score += int32_t(ADV_BLOCKED[r]);
            continue;
        }
        nfree++;
        score += int32_t(ADV_FREE[r]);
        int need = 6 - r;
        int sound, practical;
        rc.slack(r, c, sound, practical);
        if (sound == kNone) {
            if (best_win == 0 || need < best_win) best_win = need;
        } else if (practical <= 0) {
            urgent++;
            score += int32_t(THREAT_BONUS[r]);
        } else if (practical == 1) {
            score += int32_t(THREAT_BONUS[r]) / 2;
        } else if (practical == 2) {
            score += int32_t(THREAT_BONUS[r]) / 4;
        }
    }
    if (n == 0) return -int32_t(WINISH);
    score += int32_t(MOUSE_VALUE) * int32_t(n - 6);
    if (best_win > 0) return int32_t(WINISH) - 100 * int32_t(best_win) + score / 16;
    if (urgent >= 2) {
        score += 150 * int32_t(urgent - 1);
        if (team_to_move) score += 100;
    }
    int spare = popcnt((cats | nad) & ~committed);
    if (nfree > spare) score += int32_t(EXCESS_VALUE) * int32_t(nfree - spare);
    score -= int32_t(COVER_VALUE) * int32_t(popcnt(see_free & (INNER_ROW_MASK[4] | INNER_ROW_MASK[5])));
    int mob = popcnt(uint64_t(top) & ~occ) + popcnt(inner & ~(occ >> kCols));
    score -= int32_t(LOW_MOBILITY[std::min(mob, 4)]);
    return score;
}

int32_t eval_for_mice(const Position& p) {
    uint64_t occ = p.occupied();
    uint64_t cats = p.cats, nad = p.nad;
    uint64_t cat_see = 0;
    for (uint64_t b = cats; b; b &= b - 1) cat_see |= queen_attacks(ctz(b), occ);
    int nad_sq = nad ? ctz(nad) : -1;
    bool team_to_move = p.to_move() == kTeam;
    Race rc;
    rc.occ = occ, rc.see_all = cat_see, rc.have_cats = cats != 0, rc.nad_sq = nad_sq, rc.off = race_off(team_to_move);

    int32_t score = 0;
    int n = 0, urgent = 0, best_win = 0;
    uint64_t nad_reach = nad_sq >= 0 ? KING_ATT[nad_sq] : 0;
    int8_t rows[kCols];
    p.mouse_rows(rows);
    for (int c = 0; c < kCols; c++) {
        int r = rows[c];
        if (r < 0) continue;
        n++;
        score += int32_t(MOUSE_VALUE);
        if (occ & PATH_BELOW[r][c]) {
            score += int32_t(ADV_BLOCKED[r]);
            continue;
        }
        score += int32_t(ADV_FREE[r]);
        int need = 6 - r;
        int slack, practical;
        rc.slack(r, c, slack, practical);
        if (slack == kNone) {
            if (best_win == 0 || need < best_win) best_win = need;
        } else if (slack == 0) {
            urgent++;
            score += int32_t(THREAT_BONUS[r]);
        } else if (slack == 1) {
            score += int32_t(THREAT_BONUS[r]) / 3;
        }
    }
    if (n == 0) return -int32_t(WINISH);
    if (best_win > 0) return int32_t(WINISH) - 100 * int32_t(best_win) + score / 10;
    if (urgent >= 2) {
        score += 150 * int32_t(urgent - 1);
        if (team_to_move) score += 100;
    }
    uint16_t top = p.top;
    uint64_t inner = p.mice;
    int mob = popcnt(uint64_t(top) & ~occ) + popcnt(inner & ~(occ >> kCols));
    switch (mob) {
        case 0:
            score -= 300;
            break;
        case 1:
            score -= 120;
            break;
        case 2:
            score -= 50;
            break;
        case 3:
            score -= 15;
            break;
    }
    int in_reach = popcnt(nad_reach & inner);
    if (in_reach > 0) {
        if (team_to_move) score -= 70 + 15 * int32_t(in_reach - 1);
        else score -= 15 * int32_t(in_reach);
    }
    return score;
}

// evaluate scores p (not terminal) for the side to move in the profile of the engine's role.
int32_t evaluate(const Position& p, bool mice_role) {
    int32_t v = mice_role ? eval_for_mice(p) : eval_for_team(p);
    return p.to_move() == kTeam ? -v : v;
}

// ---- the search hooks (game/mouse/mouseab's hooks on colony::Searcher) ----

using C = SearchConfig;

constexpr uint64_t kRow5 = uint64_t(kRowFull) << (4 * kCols);

int32_t terminal_score(const Position& p, int ply) {
    if (p.winner() == p.to_move()) return C::WIN_SCORE - int32_t(ply);
    return -C::WIN_SCORE + int32_t(ply);
}

// Orderer scores the moves of one node before killers and the table move.
struct Orderer {
    int side;
    int8_t rows[kCols];
    uint16_t free;
    uint64_t mice, nad, reach = 0;

    explicit Orderer(const Position& p) {
        side = p.to_move();
        p.mouse_rows(rows);
        mice = p.mice, nad = p.nad;
        if (nad) reach = KING_ATT[ctz(nad)];
        free = p.free_mice();
    }
    int32_t key(Move m) const {
        int from = move_from(m), to = move_to(m);
        int tr = to / kCols, tc = to % kCols;
        if (side == kTeam) {
            int ti = to - kCols;
            if ((mice >> ti) & 1) return 100000 + 1000 * int32_t(tr);
            int32_t k = 0;
            int r = rows[tc];
            if (r >= 0 && r < tr && ((free >> tc) & 1)) k = 2000 + 700 * int32_t(r) - 150 * int32_t(tr - r - 1);
            if ((nad >> (from - kCols)) & 1) k += 50;
            return k;
        }
        if (tr == kRows - 1) return 1 << 20;
        int32_t k = 100 * int32_t(tr);
        if ((free >> tc) & 1) k += 400 + 150 * int32_t(tr);
        if ((reach >> (to - kCols)) & 1) k -= 3000;
        return k;
    }
};

struct EvalEntry {
    uint64_t key;
    int32_t v;
};

// Hooks are Catch The Mouse's part of the searcher (colony::Searcher's G; mouseab's hooks):
// no incremental evaluator, no pruning (Play is Apply, Root does nothing).
struct Hooks {
    static constexpr bool kCorrects = false;  // learns nothing from its searches
    using Pos = Position;
    using Move = mouse::Move;
    static constexpr Move kNoMove = mouse::kNoMove, kPass = mouse::kPass;
    static constexpr int kMaxMoves = mouse::kMaxMoves;

    bool mice_role = false;      // the engine plays the mice: their evaluation profile
    EvalEntry* evals = nullptr;  // the evaluation cache, nullptr until the first search

    static uint64_t hash(const Pos& p) { return p.hash; }
    static int to_move(const Pos& p) { return p.to_move(); }

    // enter scores a finished game, prunes by mate distance and answers a mouse on row 6: with
    // the mice to move it wins at once; with the team to move the node is searched a ply deeper.
    static bool enter(const Pos& p, int ply, int& depth, int32_t& alpha, int32_t& beta, int32_t& score) {
        if (p.terminal()) {
            score = terminal_score(p, ply);
            return true;
        }
        alpha = std::max(alpha, -C::WIN_SCORE + int32_t(ply));
        beta = std::min(beta, C::WIN_SCORE - int32_t(ply + 1));
        if (alpha >= beta) {
            score = alpha;
            return true;
        }
        if (p.mice & kRow5) {
            if (p.to_move() == kMice) {
                score = C::WIN_SCORE - int32_t(ply + 1);
                return true;
            }
            depth++;
        }
        return false;
    }

    // key is the position hash: no turn count, no repetition.
    static uint64_t key(const Pos& p) { return p.hash; }

    // leaf is the race evaluation, in the profile of the engine's role.
    int32_t leaf(const Pos& p, int) {
        bool m = mice_role;
        if (!evals) return evaluate(p, m);
        uint64_t key = p.hash;
        if (m) key ^= uint64_t(PROFILE_KEY);
        EvalEntry& e = evals[key & ((uint64_t(1) << EVAL_CACHE_BITS) - 1)];
        if (e.key != key) e.key = key, e.v = evaluate(p, m);
        return e.v;
    }

    // moves generates the moves with the orderer's static values.
    static int moves(const Pos& p, Move* mv, colony::Order<Move, C>& o, int& side) {
        int n = p.legal_moves(mv);
        side = p.to_move();
        if (n == 0 || mv[0] == kPass) return n;
        Orderer ord(p);
        o.side(ord.side);
        for (int i = 0; i < n; i++) o.keys[i] = o.key(mv[i], ord.key(mv[i]));
        side = ord.side;
        return n;
    }

    // stuck: a team that must pass is searched on.
    static bool stuck(const Pos&, int, int32_t&) { return false; }
    static void root(const Pos&) {}
    static Pos play(const Pos& p, Move m, int) { return p.apply(m); }
};

struct Proof {
    Move move = kNoMove;
    bool win = false;
    int depth = 0;
    int64_t nodes = 0;
};

// ---- the prover (game/mouse/solve) ----

const uint64_t kAttSalt[2] = {0, 0x9E3779B97F4A7C15ULL};

struct SolveEntry {
    uint64_t key;
    Move move;
    uint8_t win, fail;
    uint8_t pad[4];
};

int min_need(const Position& p) {
    if (p.mice) return 6 - (63 - clz(p.mice)) / kCols - 1;
    if (p.top) return 6;
    return 99;
}

int lower_bound(const Position& p, int att) {
    bool team_to_move = p.to_move() == kTeam;
    if (att == kMice) {
        if (team_to_move) return 2 * min_need(p);
        uint64_t occ = p.occupied();
        uint64_t inner = p.mice, top = uint64_t(p.top);
        uint64_t stuck = inner & (occ >> kCols);
        int n = 99;
        uint64_t fr = inner & ~stuck;
        if (fr) n = 6 - (63 - clz(fr)) / kCols - 1;
        if (stuck) n = std::min(n, 6 - (63 - clz(stuck)) / kCols - 1 + 1);
        if (top) {
            int need = 6;
            if ((top & ~occ) == 0) need = 7;
            n = std::min(n, need);
        }
        return 2 * n - 1;
    }
    int k = p.num_mice() - popcnt(p.cats | p.nad);
    if (k <= 0) return team_to_move ? 1 : 2;
    if (p.nad == 0) return 1 << 10;
    int ni = ctz(p.nad);
    int nr = ni / kCols + 1, nc = ni % kCols;
    int dist = 99;
    int8_t rows[kCols];
    p.mouse_rows(rows);
    for (int c = 0; c < kCols; c++)
        if (rows[c] >= 0) dist = std::min(dist, std::max(std::abs(int(rows[c]) - nr), std::abs(c - nc)));
    if (!team_to_move) dist = std::max(dist - 1, 1);
    int first = (dist - 1 + 1) / 2 + 1;
    int lb = 2 * (first + k - 1) - 1;
    if (!team_to_move) lb++;
    return lb;
}

bool hint_legal(const Position& p, Move m) {
    if (m == kPass || m >= kNoMove || is_team(m) != (p.to_move() == kTeam)) return false;
    int from = move_from(m), to = move_to(m);
    uint64_t occ = p.occupied();
    if (!is_team(m)) {
        if (to != from + kCols || to >= kNumCells) return false;
        if (from < kCols) return ((p.top >> from) & 1) && ((occ >> (to - kCols)) & 1) == 0;
        int fi = from - kCols;
        return ((p.mice >> fi) & 1) && (to >= 6 * kCols || ((occ >> (to - kCols)) & 1) == 0);
    }
    if (from < kCols || to < kCols || from >= 6 * kCols || to >= 6 * kCols) return false;
    int fi = from - kCols, ti = to - kCols;
    if ((p.cats >> fi) & 1) return ((queen_attacks(fi, occ) & ~occ) >> ti) & 1;
    if ((p.nad >> fi) & 1) return ((KING_ATT[fi] & ~(p.cats | p.nad)) >> ti) & 1;
    return false;
}

struct SolveResult {
    int winner = -1, depth = 0;
    bool exact = false, complete = true;
    Move move = kNoMove;
    int64_t nodes = 0;
};

struct Solver {
    SolveEntry* tt;
    size_t size;
    uint64_t mask = 0;
    int64_t nodes = 0, node_limit = 0;
    int att = 0;
    bool has_deadline = false;
    int64_t deadline = 0;
    bool stop = false;
    Move moves[SOLVE_MAX_PLY][kMaxMoves];
    int32_t keys[SOLVE_MAX_PLY][kMaxMoves];
    static constexpr int kBucket = 4;

    explicit Solver(int mb) {
        mb = std::max(mb, 1);
        uint64_t n = 1;
        while (n * 2 * kBucket * 16 <= uint64_t(mb) << 20) n *= 2;
        size = n * kBucket;
        tt = zeroed<SolveEntry>(size);
        mask = n - 1;
    }
    void clear() { std::memset(static_cast<void*>(tt), 0, size * sizeof(SolveEntry)); }
    SolveEntry* probe(uint64_t key) {
        SolveEntry* b = &tt[(key & mask) * kBucket];
        for (int i = 0; i < kBucket; i++)
            if (b[i].key == key) return &b[i];
        return nullptr;
    }
    SolveEntry* slot(uint64_t key) {
        SolveEntry* b = &tt[(key & mask) * kBucket];
        int victim = 0, worst = 1 << 30;
        for (int i = 0; i < kBucket; i++) {
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
    void set_limits(int64_t n, bool has_dl, int64_t dl) {
        nodes = 0, node_limit = n, has_deadline = has_dl, deadline = dl, stop = false;
    }
    bool search(const Position& p, int d, int ply) {
        nodes++;
        if ((nodes & 1023) == 0 && has_deadline && now_ns() > deadline) stop = true;
        if (node_limit > 0 && nodes >= node_limit) stop = true;
        if (stop) return false;
        if (p.terminal()) return p.winner() == att;
        int side = p.to_move();
        if (d <= 0 || ply >= SOLVE_MAX_PLY - 1 || lower_bound(p, att) > d) return false;
        if (side == kMice && (p.mice & kRow5)) return att == kMice;
        uint64_t key = p.hash ^ kAttSalt[att];
        if (key == 0) key = 1;
        Move hint = kNoMove;
        bool use_tt = d >= int(SOLVE_TT_MIN_DEPTH);
        if (use_tt) {
            if (SolveEntry* e = probe(key)) {
                if (e->win != 0 && int(e->win) <= d) return true;
                if (int(e->fail) >= d) return false;
                hint = e->move;
            }
        }
        bool tried = false;
        if (hint != kNoMove && hint_legal(p, hint)) {
            tried = true;
            bool w = search(p.apply(hint), d - 1, ply + 1);
            if (stop) return false;
            if (w == (side == att)) {
                record(key, d, w, side == att, hint);
                return w;
            }
        }
        Move* mv = moves[ply];
        int n = p.legal_moves(mv);
        if (side == kTeam) {
            uint64_t r5 = p.mice & kRow5;
            if (r5) {
                if (popcnt(r5) > 1) return att == kMice;
                int k = 0;
                for (int i = 0; i < n; i++) {
                    Move m = mv[i];
                    if (m != kPass && (uint64_t(1) << (move_to(m) - kCols)) == r5) mv[k++] = m;
                }
                n = k;
                if (n == 0) return att == kMice;
            }
        }
        int32_t* ks = keys[ply];
        order(p, mv, n, hint, ks);
        bool result = side != att;
        Move best = kNoMove;
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
        if (use_tt) record(key, d, result, side == att, best);
        return result;
    }
    void record(uint64_t key, int d, bool win, bool att_to_move, Move m) {
        SolveEntry* e = slot(key);
        if (win) {
            if (e->win == 0 || int(e->win) > d) e->win = uint8_t(std::min(d, 255));
            if (att_to_move) e->move = m;
        } else {
            e->fail = uint8_t(std::min(std::max(int(e->fail), d), 255));
            if (!att_to_move) e->move = m;
        }
    }
    void order(const Position& p, const Move* mv, int n, Move hint, int32_t* ks) const {
        int8_t rows[kCols];
        p.mouse_rows(rows);
        uint16_t fr = p.free_mice();
        int free_row[kCols];
        for (int c = 0; c < kCols; c++) {
            free_row[c] = -1;
            if ((fr >> c) & 1) free_row[c] = rows[c];
        }
        uint64_t mice = p.mice;
        for (int i = 0; i < n; i++) {
            Move m = mv[i];
            int32_t k = 0;
            if (m == hint) {
                k = 1 << 20;
            } else if (m == kPass) {
            } else if (!is_team(m)) {
                int tr = move_to(m) / kCols, tc = move_to(m) % kCols;
                k = 10 * int32_t(tr);
                if (free_row[tc] >= 0) k += 100 + 10 * int32_t(tr);
            } else {
                int to = move_to(m);
                int tr = to / kCols, tc = to % kCols;
                if ((mice >> (to - kCols)) & 1) {
                    k = 5000 + 100 * int32_t(tr);
                } else if (free_row[tc] >= 0 && free_row[tc] < tr) {
                    int r = free_row[tc];
                    k = 1000 + 100 * int32_t(r) - 10 * int32_t(tr - r - 1);
                } else if (rows[tc] >= 0 && int(rows[tc]) == tr - 1) {
                    k = 500;
                }
            }
            ks[i] = int32_t(uint32_t(-k) << 8) | int32_t(i);
        }
    }

    // solve deepens from depth 1 to max_depth (0: the end of the game), wins of the side to move
    // only (Limits.MeOnly), within a node budget and a time (0: none).
    SolveResult solve(const Position& p, int max_depth, int64_t node_budget, int64_t t) {
        int64_t start = now_ns();
        bool has_dl = t > 0;
        int64_t dl = start + t;
        set_limits(node_budget, has_dl, dl);
        int full = 2 * p.mouse_steps_left() + 1;
        int max_d = full;
        if (max_depth > 0) max_d = std::min(max_depth, full);
        SolveResult res;
        if (p.terminal()) {
            res.winner = p.winner(), res.exact = true, res.nodes = 1;
            return res;
        }
        int me = p.to_move();
        for (int d = 1; d <= max_d; d++) {
            bool ok;
            bool w = wins(p, me, d, ok);
            if (!ok) {
                res.complete = false;
                res.nodes = nodes;
                return res;
            }
            if (w) {
                res.winner = me, res.depth = d, res.exact = true;
                res.move = root_move(p, d);
                res.nodes = nodes;
                return res;
            }
            res.depth = d;
        }
        res.exact = res.depth >= full;
        res.nodes = nodes;
        return res;
    }
    Move root_move(const Position& p, int d) {
        att = p.to_move();
        uint64_t key = p.hash ^ kAttSalt[att];
        if (key == 0) key = 1;
        if (SolveEntry* e = probe(key)) {
            if (e->move != kNoMove && e->move != 0 && p.is_legal(e->move) && wins_after(p, e->move, d)) return e->move;
        }
        Move buf[kMaxMoves];
        int n = p.legal_moves(buf);
        int64_t n0 = nodes;
        for (int i = 0; i < n; i++) {
            if (wins_after(p, buf[i], d)) return buf[i];
            if (nodes - n0 > 3 * int64_t(ROOT_MOVE_NODES)) break;
        }
        return kNoMove;
    }
    bool wins_after(const Position& p, Move m, int d) {
        int64_t lim = node_limit, n0 = nodes;
        bool has_dl = has_deadline;
        int64_t dl = deadline;
        node_limit = nodes + int64_t(ROOT_MOVE_NODES), has_deadline = false;
        Position c = p.apply(m);
        bool w;
        if (c.terminal()) {
            w = c.winner() == att;
        } else {
            stop = false;
            bool r = search(c, d - 1, 1);
            w = r && !stop;
        }
        node_limit = lim, has_deadline = has_dl, deadline = dl;
        nodes = n0 + std::min(nodes - n0, int64_t(ROOT_MOVE_NODES));
        return w;
    }
};

// Prover is the solver in front of the search: forced wins, proven losses ruled out.
struct Prover {
    int mb;
    Solver* s = nullptr;
    explicit Prover(int m) : mb(m) {}
    void new_game() {
        if (s) s->clear();
    }
    static bool reaches(const Position& pos) { return !pos.terminal() && pos.mouse_steps_left() <= int(PROVE_FROM); }
    Proof prove_depth(const Position& pos, int depth, int64_t nodes, int64_t t, std::vector<Move>& veto) {
        Proof kNone;
        if (!reaches(pos) || (nodes <= 0 && t <= 0)) return kNone;
        if (!s) s = new Solver(mb);
        int64_t start = now_ns();
        int64_t lim_nodes = nodes / 3;
        if (nodes > 0) lim_nodes = std::max(lim_nodes, int64_t(1));
        SolveResult r = s->solve(pos, depth, lim_nodes, t / 3);
        if (r.winner == pos.to_move() && r.move != kNoMove) {
            Proof pf;
            pf.move = r.move, pf.win = true, pf.depth = r.depth, pf.nodes = r.nodes;
            return pf;
        }
        int64_t left = 0;
        if (t > 0) left = std::max(t - (now_ns() - start), colony::kMillisecond);
        int64_t rest = 0;
        if (nodes > 0) rest = std::max(nodes - r.nodes, int64_t(1));
        int64_t n = veto_losing(pos, rest, left, veto);
        Proof pf;
        pf.nodes = r.nodes + n;
        return pf;
    }
    int64_t veto_losing(const Position& pos, int64_t nodes, int64_t t, std::vector<Move>& veto) {
        s->set_limits(std::max(nodes, int64_t(0)), t > 0, now_ns() + t);
        int opp = 1 - pos.to_move();
        Move moves[kMaxMoves];
        int n = pos.legal_moves(moves);
        if (n < 2) return 0;
        int lost[kMaxMoves] = {0};
        int nlost = 0;
        int max_d = 2 * pos.mouse_steps_left() + 1;
        for (int d = 1; d <= max_d && nlost < n; d++) {
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
                    d = max_d;
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

// budget is the engine's Budget on the time manager tm: the game cannot last longer than the
// mouse steps left, and the clock is shared among the moves MovesLeft expects.
colony::Budget budget(colony::TimeManager& tm, const Limits& lim, const Position& pos) {
    return colony::budget(tm, lim, 0, 0, pos.mouse_steps_left() + 1, pos.moves_left());
}

// Engine is the alpha-beta engine of game/mouse/mouseab, prover included.
struct Engine {
    int solve_mb = int(DEFAULT_SOLVE_MB);
    colony::AlphaBeta<Hooks, C> ab{colony::SearchOptions{int(DEFAULT_HASH_MB), 0, false, false}};
    Prover* pr = nullptr;
    std::vector<Move> veto;

    void new_game() {
        ab.new_game();
        if (pr) pr->new_game();
    }
    // ready sets the evaluation profile for the side to move of pos and allocates the evaluation
    // cache on first use.
    void ready(const Position& pos) {
        ab.game.mice_role = pos.to_move() == kMice;
        if (!ab.game.evals) ab.game.evals = zeroed<EvalEntry>(size_t(1) << EVAL_CACHE_BITS);
    }
    Move best_move(const Position& pos, const Limits& lim) {
        colony::Budget b = budget(ab.tm, lim, pos);
        int64_t soft = b.soft();
        int depth = b.depth;
        int64_t nodes = b.nodes;
        veto.clear();
        int64_t prover_nodes = 0;
        if (prover_on(pos, soft, nodes)) {
            int64_t pn = nodes * 3 / 10 * int64_t(PROVER_SPEED);
            int64_t pt = soft * 3 / 10;
            Proof r = pr->prove_depth(pos, depth, pn, pt, veto);
            if (r.win) {
                ab.set_stats(r.depth, C::WIN_SCORE - int32_t(r.depth), r.nodes);
                return r.move;
            }
            if (nodes > 0) nodes = std::max(nodes - r.nodes / int64_t(PROVER_SPEED), int64_t(1));
            prover_nodes = r.nodes;
        }
        ready(pos);
        b.nodes = nodes, b.soft_nodes = 0;
        Move m = ab.search(pos, b, veto);
        if (prover_nodes > 0) ab.last_nodes += prover_nodes;
        return m;
    }
    bool prover_on(const Position& pos, int64_t soft, int64_t nodes) {
        if (solve_mb < 0 || !Prover::reaches(pos) || (soft <= 0 && nodes <= 0)) return false;
        if (!pr) pr = new Prover(solve_mb);
        return true;
    }
};

// ---- the judge protocol: colony::JudgeSession with Catch The Mouse's notation ----

// judge_move converts judge coordinates into a legal move of p (Position.JudgeMove).
bool judge_move(const Position& p, const colony::Coords& c, Move& m) {
    int r1 = c[0], c1 = c[1], r2 = c[2], c2 = c[3];
    if (r1 == -1 && c1 == -1 && r2 == -1 && c2 == -1) {
        m = kPass;
        return p.is_legal(kPass);
    }
    if (r1 < 1 || r1 > kRows || r2 < 1 || r2 > kRows || c1 < 1 || c1 > kCols || c2 < 1 || c2 > kCols) return false;
    m = new_move(p.side, (r1 - 1) * kCols + c1 - 1, (r2 - 1) * kCols + c2 - 1);
    return p.is_legal(m);
}

// force plays judge coordinates whatever the rules say when they make geometric sense
// (Position.Force).
bool force(const Position& p, const colony::Coords& c, Position& out) {
    int r1 = c[0], c1 = c[1], r2 = c[2], c2 = c[3];
    if (r1 < 1 || r1 > kRows || r2 < 1 || r2 > kRows || c1 < 1 || c1 > kCols || c2 < 1 || c2 > kCols) return false;
    int from = (r1 - 1) * kCols + c1 - 1, to = (r2 - 1) * kCols + c2 - 1;
    if (p.side == kMice) {
        if (to != from + kCols || p.at(r1 - 1, c1 - 1) != 1 || p.at(r2 - 1, c2 - 1) != 0) return false;
        out = p.apply(Move(from | (from + kCols) << 7));
        return true;
    }
    if (r1 < 2 || r1 > 6 || r2 < 2 || r2 > 6 || from == to) return false;
    uint64_t fb = uint64_t(1) << (from - kCols), tb = uint64_t(1) << (to - kCols);
    if (((p.cats | p.nad) & fb) == 0 || ((p.cats | p.nad) & tb) != 0) return false;
    Position q = p;
    q.mice &= ~tb;
    if (q.cats & fb) q.cats ^= fb | tb;
    else q.nad ^= fb | tb;
    out = Position::make(q.top, q.mice, q.cats, q.nad, q.bot, kMice);
    return true;
}

// parse_board_line reads the board notation "rows side" (the POSITION extension).
bool parse_board_line(const std::string& board, Position& p) {
    std::vector<std::string> f = colony::fields(board);
    return f.size() == 2 && parse_board(f[0], f[1], p);
}

// Game is the session's adapter (colony::JudgeSession): the mice are FIRST, the team SECOND.
struct Game {
    using Pos = Position;
    using Move = mouse::Move;
    Engine* eng;

    Pos start() { return Position::start(); }
    bool parse_board(const std::string& s, Pos& p) { return parse_board_line(s, p); }
    std::string str(const Pos& p) { return p.str(); }
    int to_move(const Pos& p) { return p.to_move(); }
    int num_players() { return 2; }
    bool terminal(const Pos& p) { return p.terminal(); }
    Pos with_to_move(const Pos& p, int pl) { return p.with_to_move(pl); }
    Pos playable(const Pos& p) { return p; }
    Pos apply(const Pos& p, Move m) { return p.apply(m); }
    Pos pass(const Pos& p) { return p.with_to_move(p.to_move() ^ 1); }
    bool judge_move(const Pos& p, const colony::Coords& c, Move& m) { return mouse::judge_move(p, c, m); }
    bool force(const Pos& p, const colony::Coords& c, Pos& out) { return mouse::force(p, c, out); }
    colony::Coords coords(const Pos&, Move m) {
        if (m >= kNoMove) return colony::kPassCoords;
        int from = move_from(m), to = move_to(m);
        return {from / kCols + 1, from % kCols + 1, to / kCols + 1, to % kCols + 1};
    }
    // choose is the engine's move; an illegal one (never seen) is replaced by the first legal move.
    Move choose(const Pos& p, const Limits& lim) {
        Move m = eng->best_move(p, lim);
        if (!p.is_legal(m)) {
            Move buf[kMaxMoves];
            p.legal_moves(buf);
            std::fprintf(stderr, "agent: engine answered an illegal move: playing the first legal one\n");
            m = buf[0];
        }
        return m;
    }
    void new_game() { eng->new_game(); }
    int64_t last_nodes() { return eng->ab.last_nodes; }
    bool report(int& depth, int32_t& score) {
        depth = eng->ab.last_depth, score = eng->ab.last_score;
        return depth > 0;
    }
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
        auto board = [&](size_t i) { return f.size() == i + 2 && parse_board(f[i], f[i + 1], p); };
        if (f[0] == "seed" && f.size() == 2) {
            eng.ab.opts.seed = std::strtoull(f[1].c_str(), nullptr, 10);
            std::printf("ok\n");
        } else if (f[0] == "newgame") {
            eng.new_game();
            std::printf("ok\n");
        } else if (f[0] == "perft" && f.size() > 1 && board(2)) {
            std::printf("%llu\n", (unsigned long long)perft(p, std::atoi(f[1].c_str())));
        } else if (f[0] == "eval" && board(1)) {
            std::printf("%llu %d %d %d %d\n", (unsigned long long)p.hash, evaluate(p, true), evaluate(p, false),
                        p.mouse_steps_left(), p.moves_left());
        } else if (f[0] == "budget" && f.size() > 1 && board(2)) {
            Limits lim;
            lim.my_time = std::atoll(f[1].c_str()) * colony::kMillisecond;
            colony::TimeManager fresh{C::TIME};
            colony::Budget b = budget(fresh, lim, p);
            std::printf("%lld %lld %d\n", (long long)b.soft(), (long long)b.hard, b.depth);
        } else if (f[0] == "go" && f.size() > 2 && board(3)) {
            Limits lim;
            lim.nodes = std::atoll(f[1].c_str());
            lim.depth = std::atoi(f[2].c_str());
            Move m = eng.best_move(p, lim);
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
    parse_board_line(".RRR....R.R/R...R.RRCR./.....R...../.........../....N.C..../C.........C/........... N", p);
    Engine eng;
    Limits lim;
    lim.depth = 7;
    int64_t nodes = 0;
    double c0 = colony::cpu_seconds();
    int64_t t0 = now_ns();
    for (int i = 0; i < 3; i++) {
        eng.new_game();
        Move m = eng.best_move(p, lim);
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
    mouse::init_tables();
    if (argc > 1 && std::string(argv[1]) == "--parity") return mouse::parity();
    if (argc > 1 && std::string(argv[1]) == "--bench") return mouse::bench();
    mouse::Engine eng;
    eng.ab.opts.seed = mouse::AGENT_SEED;
    mouse::Game g{&eng};
    colony::JudgeSession<mouse::Game> s(g);
    return s.run();
}
