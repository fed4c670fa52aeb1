// @@HEADER@@
//
// Bacteria War (Ataxx 7x7) agent: Colony's nnab engine (colony/game/ataxx/nnab) ported to
// C++17 from the template export/cpp/ataxx.cpp. The bitboards follow colony/game/ataxx, the
// search colony/engine/alphabeta as nnab configures it, the evaluation colony/nn/nnue's
// integer net. The exporter fills in the search constants and the net's weights from the Go
// side; the parity tests of colony/export check that both sides search the same trees.
//
// Build: g++ -std=c++17 -O2 Main.cpp   (standard library only)
// Run:   ./a.out              the judge protocol on stdin/stdout
//        ./a.out --bench      nodes per second on fixed positions (--portable --bench: SSE2
//                             kernels, --scalar --bench: plain C++ ones)
//        ./a.out --parity     the parity tests' command mode (export/cpp_ataxx_test.go)

// @@COMMON@@

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace ataxx {

using colony::Coords;
using colony::Limits;

// ---- constants from the Go side (export/cpp_ataxx.go) ----
// @@CONFIG@@

// ---- the net (colony/nn/nnue), quantized by the Go side ----
// @@WEIGHTS@@

// ---- the game (colony/game/ataxx) ----
constexpr int kSize = 7, kSquares = 49, kMaxTurns = 400, kMaxMoves = kSquares * 17;
constexpr uint64_t kFull = (uint64_t(1) << kSquares) - 1;
constexpr uint64_t kColA = 0x0040810204081ULL, kColG = kColA << 6;
constexpr int O = 0, X = 1;

using Move = uint16_t;
constexpr Move kPass = 0xFFFF, kNoMove = 0xFFFE;

static uint64_t ADJ1[kSquares], ADJ2[kSquares];

inline int ctz(uint64_t b) { return __builtin_ctzll(b); }
// popcnt counts bits without the popcnt instruction, which -O2 alone does not assume (the
// builtin would call libgcc).
inline int popcnt(uint64_t b) {
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((b * 0x0101010101010101ULL) >> 56);
}

inline Move clone_move(int to) { return Move(to | to << 6); }
inline Move jump_move(int from, int to) { return Move(to | from << 6); }
inline int move_to(Move m) { return m & 63; }
inline int move_from(Move m) { return (m >> 6) & 63; }
inline bool is_clone(Move m) { return m < kNoMove && move_from(m) == move_to(m); }
inline bool is_jump(Move m) { return m < kNoMove && move_from(m) != move_to(m); }

inline uint64_t dilate(uint64_t b) {
    uint64_t h = (b | ((b << 1) & ~kColA) | ((b >> 1) & ~kColG)) & kFull;
    return (h | h << kSize | h >> kSize) & kFull;
}

struct Pos {
    uint64_t bb[2];
    uint64_t hash;
    uint16_t turn;
    uint8_t side;
};

inline uint64_t compute_hash(const Pos& p) {
    uint64_t h = 0;
    for (int pl = 0; pl < 2; pl++)
        for (uint64_t b = p.bb[pl]; b; b &= b - 1) h ^= ZOBRIST[pl][ctz(b)];
    if (p.side == X) h ^= ZOB_SIDE;
    return h;
}

inline Pos make_pos(uint64_t o, uint64_t x, int side, int turns) {
    Pos p;
    p.bb[O] = o;
    p.bb[X] = x;
    p.side = uint8_t(side);
    p.turn = uint16_t(turns);
    p.hash = compute_hash(p);
    return p;
}

inline Pos start_pos() { return make_pos(1ULL << 0 | 1ULL << 48, 1ULL << 6 | 1ULL << 42, O, 0); }
inline uint64_t empty_cells(const Pos& p) { return kFull & ~(p.bb[0] | p.bb[1]); }
inline int own_turns_left(const Pos& p) { return std::max(kMaxTurns - int(p.turn) + 1, 0) / 2; }
inline bool terminal(const Pos& p) {
    return p.bb[0] == 0 || p.bb[1] == 0 || (p.bb[0] | p.bb[1]) == kFull || p.turn >= kMaxTurns;
}
inline bool has_move(const Pos& p) { return (dilate(dilate(p.bb[p.side])) & empty_cells(p)) != 0; }

// legal_moves writes the legal moves to out and returns their number (Position.LegalMoves).
inline int legal_moves(const Pos& p, Move* out) {
    if (terminal(p)) return 0;
    int n = 0;
    uint64_t own = p.bb[p.side], empty = empty_cells(p);
    for (uint64_t c = dilate(own) & empty; c; c &= c - 1) out[n++] = clone_move(ctz(c));
    for (uint64_t o = own; o; o &= o - 1) {
        int from = ctz(o);
        for (uint64_t j = ADJ2[from] & empty; j; j &= j - 1) out[n++] = jump_move(from, ctz(j));
    }
    if (n == 0) out[n++] = kPass;
    return n;
}

inline int count_moves(const Pos& p) {
    if (terminal(p)) return 0;
    uint64_t own = p.bb[p.side], empty = empty_cells(p);
    int n = popcnt(dilate(own) & empty);
    for (uint64_t o = own; o; o &= o - 1) n += popcnt(ADJ2[ctz(o)] & empty);
    return n == 0 ? 1 : n;
}

inline bool is_legal(const Pos& p, Move m) {
    if (terminal(p)) return false;
    if (m == kPass) return !has_move(p);
    if (m >= kNoMove || move_to(m) >= kSquares || move_from(m) >= kSquares) return false;
    int to = move_to(m), from = move_from(m);
    if ((empty_cells(p) & (1ULL << to)) == 0) return false;
    uint64_t own = p.bb[p.side];
    if (from == to) return (ADJ1[to] & own) != 0;
    return (own & (1ULL << from)) != 0 && (ADJ2[to] & (1ULL << from)) != 0;
}

inline Pos apply(Pos p, Move m) {
    int s = p.side, o = s ^ 1;
    if (m != kPass) {
        int to = move_to(m), from = move_from(m);
        uint64_t flips = ADJ1[to] & p.bb[o];
        p.bb[s] |= 1ULL << to | flips;
        p.bb[o] &= ~flips;
        p.hash ^= ZOBRIST[s][to];
        if (from != to) {
            p.bb[s] &= ~(1ULL << from);
            p.hash ^= ZOBRIST[s][from];
        }
        for (uint64_t f = flips; f; f &= f - 1) p.hash ^= ZOBRIST[0][ctz(f)] ^ ZOBRIST[1][ctz(f)];
    }
    p.side = uint8_t(o);
    p.hash ^= ZOB_SIDE;
    p.turn++;
    return p;
}

inline int captures(const Pos& p, Move m) { return m >= kNoMove ? 0 : popcnt(ADJ1[move_to(m)] & p.bb[p.side ^ 1]); }

// perft is games.BulkPerft with CountMoves at the last ply.
static uint64_t perft(const Pos& p, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return uint64_t(count_moves(p));
    Move moves[kMaxMoves];
    int n = legal_moves(p, moves);
    uint64_t t = 0;
    for (int i = 0; i < n; i++) t += perft(apply(p, moves[i]), depth - 1);
    return t;
}

static void init_tables() {
    for (int sq = 0; sq < kSquares; sq++) {
        int r = sq / kSize, c = sq % kSize;
        ADJ1[sq] = ADJ2[sq] = 0;
        for (int r2 = 0; r2 < kSize; r2++)
            for (int c2 = 0; c2 < kSize; c2++) {
                int d = std::max(std::abs(r - r2), std::abs(c - c2));
                if (d == 1) ADJ1[sq] |= 1ULL << (r2 * kSize + c2);
                if (d == 2) ADJ2[sq] |= 1ULL << (r2 * kSize + c2);
            }
    }
}

// ---- notation (Position.String, ParseBoard, the judge's coordinates) ----

static std::string pos_str(const Pos& p) {
    std::string s;
    for (int r = 0; r < kSize; r++) {
        if (r) s += '/';
        for (int c = 0; c < kSize; c++) {
            uint64_t bit = 1ULL << (r * kSize + c);
            s += (p.bb[O] & bit) ? 'O' : (p.bb[X] & bit) ? 'X' : '.';
        }
    }
    s += ' ';
    s += "OX"[p.side];
    if (p.turn) s += " " + std::to_string(p.turn);
    return s;
}

// parse_board is ParseBoard followed by Valid: "rows side [turns]".
static bool parse_board(const std::string& str, Pos& out) {
    std::vector<std::string> f = colony::fields(str);
    if (f.size() < 2 || f.size() > 3) return false;
    uint64_t bb[2] = {0, 0};
    int r = 0, c = 0;
    for (char ch : f[0]) {
        if (ch == '/') {
            if (c != kSize) return false;
            r++, c = 0;
            continue;
        }
        if (r >= kSize || c >= kSize) return false;
        uint64_t bit = 1ULL << (r * kSize + c);
        if (ch == 'O' || ch == 'o') bb[O] |= bit;
        else if (ch == 'X' || ch == 'x') bb[X] |= bit;
        else if (ch != '.' && ch != '-') return false;
        c++;
    }
    if (r != kSize - 1 || c != kSize) return false;
    std::string s = colony::ascii_upper(f[1]);
    int side = s == "O" ? O : s == "X" ? X : -1;
    if (side < 0) return false;
    int64_t turns = 0;
    if (f.size() == 3 && (!colony::parse_int(f[2], turns) || turns < 0 || turns > kMaxTurns)) return false;
    out = make_pos(bb[O], bb[X], side, int(turns));
    return true;
}

// judge_move is Position.JudgeMove.
static bool judge_move(const Pos& p, const Coords& c, Move& m) {
    if (c[0] == -1 && c[1] == -1 && c[2] == -1 && c[3] == -1) {
        m = kPass;
        return is_legal(p, kPass);
    }
    for (int v : c)
        if (v < 1 || v > kSize) return false;
    int from = (c[0] - 1) * kSize + c[1] - 1, to = (c[2] - 1) * kSize + c[3] - 1;
    if ((p.bb[p.side] & (1ULL << from)) == 0) return false;
    int d = std::max(std::abs(c[0] - c[2]), std::abs(c[1] - c[3]));
    if (d == 1) m = clone_move(to);
    else if (d == 2) m = jump_move(from, to);
    else return false;
    return is_legal(p, m);
}

// judge_coords is Position.JudgeCoords.
static Coords judge_coords(const Pos& p, Move m) {
    if (m >= kNoMove) return colony::kPassCoords;
    int to = move_to(m), from = move_from(m);
    if (from == to) {
        uint64_t src = ADJ1[to] & p.bb[p.side];
        if (src) from = ctz(src);
    }
    return Coords{from / kSize + 1, from % kSize + 1, to / kSize + 1, to % kSize + 1};
}

// force is Position.Force: the judge move played whatever the rules say.
static bool force(const Pos& p, const Coords& c, Pos& out) {
    for (int v : c)
        if (v < 1 || v > kSize) return false;
    int d = std::max(std::abs(c[0] - c[2]), std::abs(c[1] - c[3]));
    if (d != 1 && d != 2) return false;
    uint64_t from = 1ULL << ((c[0] - 1) * kSize + c[1] - 1);
    int to_sq = (c[2] - 1) * kSize + c[3] - 1;
    uint64_t to = 1ULL << to_sq;
    int me = p.side;
    uint64_t own = p.bb[me], other = p.bb[me ^ 1];
    if (d == 2) {
        own &= ~from;
        other &= ~from;
    }
    own |= to;
    other &= ~to;
    uint64_t flips = ADJ1[to_sq] & other;
    own |= flips;
    other &= ~flips;
    uint64_t o = own, x = other;
    if (me == X) std::swap(o, x);
    out = make_pos(o, x, me ^ 1, std::min(int(p.turn) + 1, kMaxTurns));
    return true;
}

// ---- the integer net (colony/nn/nnue.Net, the scheme without L1) ----

constexpr int H = NET_HIDDEN;  // lanes per perspective
constexpr int kRow = 2 * H;    // a row holds both perspectives' lanes, player 0's first

struct alignas(32) Acc {
    int16_t v[kRow];
};

alignas(32) static int16_t PLACE[2][kSquares][kRow];  // player p's piece appears on c
alignas(32) static int16_t FLIP[2][kSquares][kRow];   // the piece on c turns from 1-p's to p's
alignas(32) static int16_t INIT[kRow];
alignas(32) static int16_t OUTW16[kRow];
// Window input (NET_WINDOWS, colony/nn/nnue's windows): WROWS[w * 81 + code] is what window w
// (numbered row-major by its top-left cell) adds in state code as seen from player 0, both
// perspectives' lanes (perspective 1's: FT of the code with own and other exchanged).
constexpr int kWinStates = 81;
constexpr int kWinW = NET_WINDOWS ? NET_WIDTH : 1;
constexpr int kWindows = NET_WINDOWS ? (kSquares / NET_WIDTH - 1) * (NET_WIDTH - 1) : 1;
constexpr int kWinRows = NET_WINDOWS ? kWindows * kWinStates : 1;
alignas(32) static int16_t WROWS[kWinRows][kRow];
static uint64_t WIN_TOP_LEFT;  // the cells that are a window's top-left cell
static uint8_t WIN_INDEX[64];  // window index by its top-left cell
static int POW3[16];           // sum of 3^i over the bits i of a 4-bit window mask
// The kernels of the accumulator updates and the output layer: AVX2 where the CPU has it
// (GCC's target attribute, chosen at run time), else SSE2 (x86-64's baseline), else plain
// C++. --portable asks for SSE2, --scalar for plain C++. All give the same integers.
enum Kernel { kScalar, kSSE2, kAVX2 };
#if defined(__x86_64__) || defined(_M_X64)
#define COLONY_X86 1
static Kernel g_kernel = kSSE2;
#else
static Kernel g_kernel = kScalar;
#endif
static bool g_simd_eval = false;  // the output weights fit the int16 dot product (madd)

static void init_windows() {
    for (int m = 0; m < 16; m++)
        for (int i = 0, t = 1; i < 4; i++, t *= 3) POW3[m] += (m >> i & 1) * t;
    int w = 0;
    for (int r = 0; r < kSquares / kWinW - 1; r++)
        for (int c = 0; c < kWinW - 1; c++) {
            WIN_TOP_LEFT |= 1ULL << (r * kWinW + c);
            WIN_INDEX[r * kWinW + c] = uint8_t(w++);
        }
    for (int f = 0; f < kWinRows; f++) {
        int code = f % kWinStates, swapped = 0;
        for (int x = code, t = 1; t < kWinStates; x /= 3, t *= 3)
            if (x % 3) swapped += (3 - x % 3) * t;
        int g = f - code + swapped;
        for (int j = 0; j < H; j++) {
            WROWS[f][j] = FT[f][j];
            WROWS[f][H + j] = FT[g][j];
        }
    }
}

// win_row is the row of the window with top-left cell tl on the position bb (nnue's row).
inline const int16_t* win_row(const uint64_t* bb, int tl) {
    int o = int(bb[0] >> tl & 3) | int(bb[0] >> (tl + kWinW) & 3) << 2;
    int x = int(bb[1] >> tl & 3) | int(bb[1] >> (tl + kWinW) & 3) << 2;
    return WROWS[WIN_INDEX[tl] * kWinStates + POW3[o] + 2 * POW3[x]];
}

static const char* kernel_name() { return g_kernel == kAVX2 ? "avx2" : g_kernel == kSSE2 ? "sse2" : "scalar"; }

static void init_net() {
    if (NET_WINDOWS) init_windows();
    for (int p = 0; p < 2 && !NET_WINDOWS; p++)
        for (int c = 0; c < kSquares; c++)
            for (int persp = 0; persp < 2; persp++) {
                int f = c, g = kSquares + c;
                if (persp != p) std::swap(f, g);
                for (int j = 0; j < H; j++) {
                    PLACE[p][c][persp * H + j] = int16_t(FT[f][j]);
                    FLIP[p][c][persp * H + j] = int16_t(uint16_t(FT[f][j] - FT[g][j]));
                }
            }
    for (int persp = 0; persp < 2; persp++)
        for (int j = 0; j < H; j++) INIT[persp * H + j] = FT_BIAS[j];
    int64_t mx = 0;
    for (int i = 0; i < kRow; i++) mx = std::max<int64_t>(mx, std::abs(int64_t(OUT_W[i])));
    g_simd_eval = !NET_SCRELU && mx <= 32767 && int64_t(kRow) * NET_QA * mx < (int64_t(1) << 31);
    for (int i = 0; i < kRow; i++) OUTW16[i] = int16_t(OUT_W[i]);
#ifdef COLONY_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) g_kernel = kAVX2;
#endif
}

inline void acc_add(int16_t* d, const int16_t* r) {
    for (int i = 0; i < kRow; i++) d[i] = int16_t(uint16_t(d[i]) + uint16_t(r[i]));
}

// refresh is Net.Refresh.
static void refresh(Acc& a, const Pos& p) {
    std::memcpy(a.v, INIT, sizeof INIT);
    if (NET_WINDOWS)
        for (uint64_t b = WIN_TOP_LEFT; b; b &= b - 1) acc_add(a.v, win_row(p.bb, ctz(b)));
    for (int pl = 0; pl < 2 && !NET_WINDOWS; pl++)
        for (uint64_t b = p.bb[pl]; b; b &= b - 1) acc_add(a.v, PLACE[pl][ctz(b)]);
}

inline int32_t clip(int16_t v) { return std::min<int32_t>(std::max<int32_t>(v, 0), NET_QA); }

static void acc_move_scalar(Acc& dst, const Acc& src, int p, int to, int from, uint64_t flips) {
    const int16_t* pl = PLACE[p][to];
    if (from >= 0) {
        const int16_t* rm = PLACE[p][from];
        for (int i = 0; i < kRow; i++) dst.v[i] = int16_t(uint16_t(src.v[i]) + uint16_t(pl[i]) - uint16_t(rm[i]));
    } else {
        for (int i = 0; i < kRow; i++) dst.v[i] = int16_t(uint16_t(src.v[i]) + uint16_t(pl[i]));
    }
    for (uint64_t b = flips; b; b &= b - 1) acc_add(dst.v, FLIP[p][ctz(b)]);
}

// WinMove is a window net's move: the touched windows' old rows (sub) and new ones (add).
struct WinMove {
    int n = 0;
    const int16_t* add[kWindows];
    const int16_t* sub[kWindows];
};

// win_move lists the windows around the cells a move of player p changes on the position
// before (nnue's moveWindows).
static void win_move(WinMove& w, const uint64_t* before, int p, int to, int from, uint64_t flips) {
    uint64_t changed = 1ULL << to | flips, after[2] = {before[0], before[1]};
    after[p] |= changed;
    after[p ^ 1] &= ~flips;
    if (from >= 0) {
        changed |= 1ULL << from;
        after[p] &= ~(1ULL << from);
    }
    uint64_t touched = (changed | changed >> 1 | changed >> kWinW | changed >> (kWinW + 1)) & WIN_TOP_LEFT;
    for (; touched; touched &= touched - 1, w.n++) {
        w.sub[w.n] = win_row(before, ctz(touched));
        w.add[w.n] = win_row(after, ctz(touched));
    }
}

static void win_apply_scalar(Acc& dst, const Acc& src, const WinMove& w) {
    for (int i = 0; i < kRow; i++) {
        uint16_t v = uint16_t(src.v[i]);
        for (int k = 0; k < w.n; k++) v = uint16_t(v + uint16_t(w.add[k][i]) - uint16_t(w.sub[k][i]));
        dst.v[i] = int16_t(v);
    }
}

static int64_t output_scalar(const int16_t* us, const int16_t* them) {
    int64_t s = OUT_B;
    for (int i = 0; i < H; i++) {
        int32_t a = clip(us[i]), b = clip(them[i]);
        if (NET_SCRELU) {
            a = (a * a) >> NET_SHIFT;
            b = (b * b) >> NET_SHIFT;
        }
        s += int64_t(a) * OUT_W[i] + int64_t(b) * OUT_W[H + i];
    }
    return s;
}

#ifdef COLONY_X86
// The SIMD kernels, written once for a vector type V of W int16 lanes: the move's rows added
// in one pass, and the output's clipped lanes times the int16 weights summed in int32 pairs.
#define COLONY_KERNELS(SUFFIX, TARGET, V, W, LOAD, STORE, ADD16, SUB16, MAX16, MIN16, SET16, ZERO, MADD, ADD32) \
    TARGET static void acc_move_##SUFFIX(Acc& dst, const Acc& src, int p, int to, int from, uint64_t flips) {   \
        const int16_t* pl = PLACE[p][to];                                                                       \
        const int16_t* rm = from >= 0 ? PLACE[p][from] : nullptr;                                               \
        for (int i = 0; i < kRow; i += W) {                                                                     \
            V v = ADD16(LOAD((const V*)(src.v + i)), LOAD((const V*)(pl + i)));                                 \
            if (rm) v = SUB16(v, LOAD((const V*)(rm + i)));                                                     \
            for (uint64_t b = flips; b; b &= b - 1) v = ADD16(v, LOAD((const V*)(FLIP[p][ctz(b)] + i)));        \
            STORE((V*)(dst.v + i), v);                                                                          \
        }                                                                                                       \
    }                                                                                                           \
    TARGET static void win_apply_##SUFFIX(Acc& dst, const Acc& src, const WinMove& w) {                         \
        for (int i = 0; i < kRow; i += W) {                                                                     \
            V v = LOAD((const V*)(src.v + i));                                                                  \
            for (int k = 0; k < w.n; k++)                                                                       \
                v = SUB16(ADD16(v, LOAD((const V*)(w.add[k] + i))), LOAD((const V*)(w.sub[k] + i)));            \
            STORE((V*)(dst.v + i), v);                                                                          \
        }                                                                                                       \
    }                                                                                                           \
    TARGET static int64_t output_##SUFFIX(const int16_t* us, const int16_t* them) {                             \
        const V zero = ZERO(), top = SET16(int16_t(NET_QA));                                                    \
        V s = ZERO();                                                                                           \
        for (int i = 0; i < H; i += W) {                                                                        \
            V a = MIN16(MAX16(LOAD((const V*)(us + i)), zero), top);                                            \
            V b = MIN16(MAX16(LOAD((const V*)(them + i)), zero), top);                                          \
            s = ADD32(s, MADD(a, LOAD((const V*)(OUTW16 + i))));                                                \
            s = ADD32(s, MADD(b, LOAD((const V*)(OUTW16 + H + i))));                                            \
        }                                                                                                       \
        alignas(32) int32_t out[W / 2];                                                                         \
        STORE((V*)out, s);                                                                                      \
        int64_t t = OUT_B;                                                                                      \
        for (int k = 0; k < W / 2; k++) t += out[k];                                                            \
        return t;                                                                                               \
    }

COLONY_KERNELS(avx2, __attribute__((target("avx2"))), __m256i, 16, _mm256_load_si256, _mm256_store_si256,
               _mm256_add_epi16, _mm256_sub_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_set1_epi16,
               _mm256_setzero_si256, _mm256_madd_epi16, _mm256_add_epi32)
COLONY_KERNELS(sse2, , __m128i, 8, _mm_load_si128, _mm_store_si128, _mm_add_epi16, _mm_sub_epi16, _mm_max_epi16,
               _mm_min_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_madd_epi16, _mm_add_epi32)
#endif

// acc_move is Net.Apply: dst = src updated for player p's move (from < 0: a division) on the
// position before (each player's pieces; read by window nets only).
static void acc_move(Acc& dst, const Acc& src, const uint64_t* before, int p, int to, int from, uint64_t flips) {
    if (NET_WINDOWS) {
        WinMove w;
        win_move(w, before, p, to, from, flips);
#ifdef COLONY_X86
        if (g_kernel == kAVX2) return win_apply_avx2(dst, src, w);
        if (g_kernel == kSSE2) return win_apply_sse2(dst, src, w);
#endif
        return win_apply_scalar(dst, src, w);
    }
#ifdef COLONY_X86
    if (g_kernel == kAVX2) return acc_move_avx2(dst, src, p, to, from, flips);
    if (g_kernel == kSSE2) return acc_move_sse2(dst, src, p, to, from, flips);
#endif
    acc_move_scalar(dst, src, p, to, from, flips);
}

// evaluate is Net.Evaluate: the score of the side to move stm (hundredths of a piece).
static int32_t evaluate(const Acc& a, int stm) {
    const int16_t* us = a.v + stm * H;
    const int16_t* them = a.v + (stm ^ 1) * H;
    int64_t out;
#ifdef COLONY_X86
    if (g_simd_eval && g_kernel == kAVX2) out = output_avx2(us, them);
    else if (g_simd_eval && g_kernel == kSSE2) out = output_sse2(us, them);
    else
#endif
        out = output_scalar(us, them);
    return int32_t((out * SCORE_MUL) >> 32);
}

// ---- Bacteria War's search hooks (colony/game/ataxx/alphabeta.Rules, nnab's hooks) ----

inline int32_t terminal_score(const Pos& p, int ply) {
    int side = p.side;
    int32_t diff = popcnt(p.bb[side]) - popcnt(p.bb[side ^ 1]);
    if (diff > 0) return WIN_SCORE - PLY_STEP * ply + diff;
    if (diff < 0) return -WIN_SCORE + PLY_STEP * ply + diff;
    return 0;
}

inline bool stuck_score(const Pos& p, int ply, int32_t& v) {
    int side = p.side;
    uint64_t opp = p.bb[side ^ 1], empty = empty_cells(p);
    uint64_t reach = dilate(opp) & empty;
    for (;;) {
        uint64_t n = dilate(reach) & empty;
        if (n == reach) break;
        reach = n;
    }
    if (reach != empty) return false;
    int ne = popcnt(empty);
    if ((kMaxTurns - int(p.turn)) / 2 < ne) return false;
    int32_t diff = popcnt(p.bb[side]) - popcnt(p.bb[side ^ 1]) - ne;
    int32_t end_ply = ply + 2 * ne;
    if (diff > 0) v = WIN_SCORE - PLY_STEP * end_ply + diff;
    else if (diff < 0) v = -WIN_SCORE + PLY_STEP * end_ply + diff;
    else v = 0;
    return true;
}

inline int32_t order_value(const Pos& p, Move m, uint64_t us) {
    int to = move_to(m);
    int32_t k = 2000 * captures(p, m);
    if (is_clone(m)) k += 1000;
    else k -= 700 + 250 * popcnt(ADJ1[move_from(m)] & us & ~(1ULL << to));
    return k;
}

inline int expected_moves(const Pos& p) {
    int n = std::max((popcnt(empty_cells(p)) + 2) / 2, 3);
    int r = own_turns_left(p);
    if (r < n) n = std::max(r, 1);
    return n;
}

// ---- the transposition table (colony/engine/tt) ----

constexpr uint8_t kUpper = 1, kLower = 2, kExact = 3;

struct Entry {
    uint64_t key;
    Move move;
    int16_t score;
    int8_t depth;
    uint8_t bound, gen;
};

// Table is tt.Table: buckets of four entries. The entries come from calloc, so that the
// system hands out zeroed pages as they are first touched (as Go's make does): a new table
// costs no time up front.
struct Table {
    Entry* entries = nullptr;
    size_t size = 0;
    uint64_t mask = 0;
    uint8_t gen = 0;

    Table() = default;
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;
    ~Table() { std::free(entries); }

    bool allocated() const { return entries != nullptr; }
    void alloc(int mb) {
        mb = std::max(mb, 1);
        uint64_t buckets = 1;
        while (buckets * 2 * 4 * 16 <= uint64_t(mb) << 20) buckets *= 2;
        std::free(entries);
        size = buckets * 4;
        entries = static_cast<Entry*>(std::calloc(size, sizeof(Entry)));
        if (!entries) size = 0;  // no table rather than no move
        mask = buckets - 1;
        gen = 0;
    }
    void clear() {
        std::memset(static_cast<void*>(entries), 0, size * sizeof(Entry));
        gen = 0;
    }
    const Entry* probe(uint64_t key) const {
        const Entry* b = &entries[(key & mask) * 4];
        for (int i = 0; i < 4; i++)
            if (b[i].key == key && b[i].bound != 0) return &b[i];
        return nullptr;
    }
    void store(uint64_t key, Move m, int32_t score, int depth, uint8_t bound) {
        Entry* b = &entries[(key & mask) * 4];
        int victim = 0, worst = 1 << 30;
        for (int i = 0; i < 4; i++) {
            Entry& e = b[i];
            if (e.key == key || e.bound == 0) {
                victim = i;
                if (m == kNoMove && e.key == key) m = e.move;
                break;
            }
            int v = e.depth;
            if (e.gen != gen) v -= 64;
            if (v < worst) worst = v, victim = i;
        }
        b[victim] = Entry{key, m, int16_t(score), int8_t(depth), bound, gen};
    }
};

// ---- the search (colony/engine/alphabeta with nnab's hooks) ----

constexpr int32_t kInfinity = 32000;
constexpr int64_t kCheckMask = 1023;

struct Options {
    int hash_mb = DEFAULT_HASH_MB;
    uint64_t seed = AGENT_SEED;
    bool no_lmr = false, no_prune = false;
};

struct Delta {
    bool pass;
    int mover, to, from;
    uint64_t flips;
    uint64_t before[2];  // the pieces before the move
};

struct RootMove {
    Move m;
    int64_t order;
};

struct Engine {
    Options opts;
    Table tt;
    bool lmr = true, prune = true;

    // the evaluation's per-ply accumulators
    Acc acc[MAX_PLY + 1];
    bool acc_ok[MAX_PLY + 1];
    Delta delta[MAX_PLY + 1];

    Move killers[MAX_PLY][2];
    int32_t history[2][HIST_SIZE];
    Move moves[MAX_PLY][kMaxMoves];
    int64_t keys[MAX_PLY][kMaxMoves];
    std::vector<RootMove> root;

    int64_t nodes = 0, node_limit = 0, start = 0, hard = 0;
    bool stop = false;
    Move best_move = kNoMove;
    int32_t best_score = 0;
    int last_depth = 0;
    int32_t last_score = 0;
    int64_t last_nodes = 0;

    explicit Engine(Options o) : opts(o) {
        std::memset(killers, 0, sizeof killers);
        std::memset(history, 0, sizeof history);
        std::memset(acc_ok, 0, sizeof acc_ok);
        std::memset(delta, 0, sizeof delta);
    }

    void new_game() {
        if (tt.allocated()) tt.clear();
        std::memset(killers, 0, sizeof killers);
        std::memset(history, 0, sizeof history);
    }

    // hooks
    static uint64_t key(const Pos& p) { return p.hash ^ TURN_KEYS[p.turn]; }

    void root_acc(const Pos& p) {
        refresh(acc[0], p);
        acc_ok[0] = true;
    }

    Pos play(const Pos& p, Move m, int ply) {
        Delta& d = delta[ply + 1];
        acc_ok[ply + 1] = false;
        if (m == kPass) {
            d.pass = true;
        } else {
            int side = p.side, to = move_to(m);
            d = Delta{false, side, to, -1, ADJ1[to] & p.bb[side ^ 1], {p.bb[0], p.bb[1]}};
            if (is_jump(m)) d.from = move_from(m);
        }
        return apply(p, m);
    }

    void ensure(int ply) {
        if (acc_ok[ply]) return;
        ensure(ply - 1);
        const Delta& d = delta[ply];
        if (d.pass) acc[ply] = acc[ply - 1];
        else acc_move(acc[ply], acc[ply - 1], d.before, d.mover, d.to, d.from, d.flips);
        acc_ok[ply] = true;
    }

    int32_t static_value(const Pos& p, int ply) {
        ensure(ply);
        int32_t v = evaluate(acc[ply], p.side);
        return std::min(std::max(v, -WIN_BOUND + 1), WIN_BOUND - 1);
    }

    int32_t leaf(const Pos& p, int ply) {
        int32_t v;
        if (!has_move(p) && stuck_score(p, ply, v)) return v;
        return static_value(p, ply);
    }

    static bool legal(const Pos& p, Move m) { return m < kNoMove && is_legal(p, m); }

    // order_key is Order.Key.
    static int64_t order_key(Move m, int32_t v, const int32_t* hist, Move tt_move, Move k1, Move k2) {
        int32_t h = hist[m & (HIST_SIZE - 1)] / 8;
        int32_t k = v + h;
        if (m == tt_move) k = 1 << 24;
        else if (m == k1) k = v + KILLER_BONUS[0] + h * (KILLER_HISTORY ? 1 : 0);
        else if (m == k2) k = v + KILLER_BONUS[1] + h * (KILLER_HISTORY ? 1 : 0);
        return int64_t(uint64_t(int64_t(-k)) << 16) | int64_t(m);
    }

    // gen_moves is Rules.Moves with the order's keys: the moves' number.
    int gen_moves(const Pos& p, Move* mv, int64_t* ks, const int32_t* hist, Move tt_move, Move k1, Move k2) {
        int n = legal_moves(p, mv);
        if (n == 0 || mv[0] == kPass) return n;
        uint64_t us = p.bb[p.side];
        for (int i = 0; i < n; i++) ks[i] = order_key(mv[i], order_value(p, mv[i], us), hist, tt_move, k1, k2);
        return n;
    }

    void update_history(int side, Move m, int32_t bonus) {
        int32_t& h = history[side][m & (HIST_SIZE - 1)];
        int32_t a = std::max(bonus, -bonus);
        h += bonus - h * a / 16384;
    }

    static int32_t to_tt(int32_t s, int ply) {
        if (s >= WIN_BOUND) return s + PLY_STEP * ply;
        if (s <= -WIN_BOUND) return s - PLY_STEP * ply;
        return s;
    }
    static int32_t from_tt(int32_t s, int ply) {
        if (s >= WIN_BOUND) return s - PLY_STEP * ply;
        if (s <= -WIN_BOUND) return s + PLY_STEP * ply;
        return s;
    }

    void check_stop() {
        if (hard > 0 && colony::now_ns() - start >= hard) stop = true;
    }

    void set_killer(int ply, Move m, Move k1) {
        if (m != k1) {
            killers[ply][1] = k1;
            killers[ply][0] = m;
        }
    }

    void store(uint64_t k, Move m, int32_t v, int depth, int ply, uint8_t bound) {
        if (tt.allocated()) tt.store(k, m, to_tt(v, ply), depth, bound);
    }

    int32_t child(const Pos& p, Move m, int depth, int r, int32_t alpha, int32_t beta, int ply, int idx, bool pv) {
        Pos c = play(p, m, ply);
        if (idx == 0) return -search(c, depth - 1, -beta, -alpha, ply + 1, pv);
        int32_t v = -search(c, depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
        if (v > alpha && r > 0) v = -search(c, depth - 1, -alpha - 1, -alpha, ply + 1, false);
        if (pv && v > alpha && v < beta) v = -search(c, depth - 1, -beta, -alpha, ply + 1, true);
        return v;
    }

    int32_t search(const Pos& p, int depth, int32_t alpha, int32_t beta, int ply, bool pv) {
        nodes++;
        if ((nodes & kCheckMask) == 0) check_stop();
        if (node_limit > 0 && nodes >= node_limit) stop = true;
        if (stop) return 0;
        if (terminal(p)) return terminal_score(p, ply);
        if (depth <= 0 || ply >= MAX_PLY - 1) return leaf(p, ply);

        uint64_t k = key(p);
        Move tt_move = kNoMove;
        if (tt.allocated()) {
            if (const Entry* en = tt.probe(k)) {
                tt_move = en->move;
                if (!pv && en->depth >= depth) {
                    int32_t v = from_tt(en->score, ply);
                    if (en->bound == kExact || (en->bound == kLower && v >= beta) ||
                        (en->bound == kUpper && v <= alpha))
                        return v;
                }
            }
        }

        bool in_bounds = beta > -WIN_BOUND && beta < WIN_BOUND;
        if (prune && !pv && depth <= RFP_DEPTH && in_bounds) {
            int32_t st = static_value(p, ply);
            if (st - RFP_MARGIN * depth >= beta) return st;
        }

        int32_t orig_alpha = alpha, best = -kInfinity;
        Move best_m = kNoMove;
        Move k1 = killers[ply][0], k2 = killers[ply][1];
        int side = p.side;

        Move staged[2] = {kNoMove, kNoMove};
        int searched = 0;
        if (STAGED) {
            staged[0] = tt_move;
            if (k1 != tt_move) staged[1] = k1;
            for (int j = 0; j < 2; j++) {
                Move m = staged[j];
                if (!legal(p, m)) {
                    staged[j] = kNoMove;
                    continue;
                }
                int32_t v = child(p, m, depth, 0, alpha, beta, ply, searched, pv);
                if (stop) return 0;
                searched++;
                if (v > best) {
                    best = v, best_m = m;
                    if (v > alpha) {
                        alpha = v;
                        if (v >= beta) {
                            update_history(side, m, depth * depth);
                            set_killer(ply, m, k1);
                            store(k, m, v, depth, ply, kLower);
                            return v;
                        }
                    }
                }
            }
        }

        Move* mv = moves[ply];
        int64_t* ks = keys[ply];
        int n = gen_moves(p, mv, ks, history[side], tt_move, k1, k2);
        if (mv[0] == kPass) {
            int32_t v;
            if (stuck_score(p, ply, v)) return v;
            return -search(play(p, kPass, ply), depth - 1, -beta, -alpha, ply + 1, pv);
        }
        if (searched > 0) {
            int w = 0;
            for (int i = 0; i < n; i++)
                if (mv[i] != staged[0] && mv[i] != staged[1]) ks[w++] = ks[i];
            n = w;
        }

        bool reduce = lmr && HAVE_LMR && depth >= 3 && ((REDUCE_SIDES >> side) & 1) != 0;
        bool lmp = prune && !pv && depth < LMP_LEN;
        int picks = 3;
        if (lmp) picks = std::max(LMP[depth] - searched, 0);
        for (int i = 0; i < n; i++) {
            colony::pick_next(ks, i, n, picks);
            Move m = Move(ks[i] & 0xFFFF);
            int idx = i + searched;
            if (lmp && idx >= LMP[depth] && best > -WIN_BOUND) break;
            int r = 0;
            if (idx > 0 && reduce && m != k1 && m != k2 && -(ks[i] >> 16) < int64_t(REDUCE_BELOW)) {
                r = REDUCTIONS[std::min(depth, 63)][std::min(idx, 63)];
                if (pv && r > 0 && REDUCE_PV_LESS) r--;
                r = std::min(r, depth - 2);
            }
            int32_t v = child(p, m, depth, r, alpha, beta, ply, idx, pv);
            if (stop) return 0;
            if (v > best) {
                best = v, best_m = m;
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta) {
                        int32_t bonus = depth * depth;
                        update_history(side, m, bonus);
                        for (int j = 0; j < i; j++) update_history(side, Move(ks[j] & 0xFFFF), -bonus);
                        for (Move sm : staged)
                            if (sm != kNoMove) update_history(side, sm, -bonus);
                        set_killer(ply, m, k1);
                        break;
                    }
                }
            }
        }
        uint8_t bound = kUpper;
        if (best >= beta) bound = kLower;
        else if (best > orig_alpha) bound = kExact;
        store(k, best_m, best, depth, ply, bound);
        return best;
    }

    int32_t search_root(const Pos& p, int depth, int32_t alpha, int32_t beta) {
        return colony::search_root(*this, p, depth, alpha, beta, kInfinity,
                                   [this](Move m, int32_t v) { best_move = m, best_score = v; });
    }

    // run is the iterative-deepening driver (searcher.run with Deepen): the best move found,
    // kNoMove when there is none.
    Move run(const Pos& pos, int64_t start_ns, int64_t soft, int64_t hard_ns, int depth_limit, int64_t node_lim,
             int64_t soft_nodes) {
        if (!tt.allocated() && opts.hash_mb > 0) tt.alloc(opts.hash_mb);
        lmr = !opts.no_lmr;
        prune = !opts.no_prune;
        nodes = 0, node_limit = node_lim, start = start_ns, hard = hard_ns, stop = false;
        if (tt.allocated()) tt.gen++;
        last_depth = 0, last_score = 0, last_nodes = 0;

        static const int32_t zero_hist[HIST_SIZE] = {};
        const int32_t* hist = ROOT_HISTORY ? history[pos.side] : zero_hist;
        int n = gen_moves(pos, moves[0], keys[0], hist, kNoMove, kNoMove, kNoMove);
        if (n == 0) return kNoMove;
        if (n == 1) return moves[0][0];
        root_acc(pos);
        Move tt_move = kNoMove;
        if (tt.allocated())
            if (const Entry* en = tt.probe(key(pos))) tt_move = en->move;
        root.clear();
        for (int i = 0; i < n; i++) {
            Move m = moves[0][i];
            int64_t k = -(keys[0][i] >> 16);
            if (m == tt_move) k = int64_t(1) << 40;
            k = int64_t(uint64_t(k) << 16);
            if (opts.seed != 0) k += int64_t(colony::sm_mix(opts.seed ^ uint64_t(m) ^ pos.hash) & 0xFFFF);
            root.push_back(RootMove{m, k});
        }
        std::stable_sort(root.begin(), root.end(), [](const RootMove& a, const RootMove& b) {
            if (a.order != b.order) return a.order > b.order;
            return ROOT_TIE_MOVE && a.m < b.m;
        });
        best_move = root[0].m, best_score = 0;
        std::memset(killers, 0, sizeof killers);

        int max_d = MAX_DEPTH;
        if (depth_limit > 0) max_d = std::min(depth_limit, max_d);
        int32_t prev = 0;
        for (int d = 1; d <= max_d; d++) {
            int32_t v;
            if (ASPIRATION <= 0 || d < 4 || prev >= WIN_BOUND || prev <= -WIN_BOUND) {
                v = search_root(pos, d, -kInfinity, kInfinity);
            } else {
                int32_t delta = ASPIRATION, a = prev - delta, b = prev + delta;
                for (;;) {
                    v = search_root(pos, d, a, b);
                    if (stop) break;
                    if (v <= a) a = std::max(a - delta, -kInfinity);
                    else if (v >= b) b = std::min(b + delta, kInfinity);
                    else break;
                    delta *= 2;
                }
            }
            if (stop) break;
            prev = v;
            last_depth = d, last_score = best_score;
            if ((soft > 0 && colony::now_ns() - start_ns >= soft / 2) || (soft_nodes > 0 && nodes >= soft_nodes)) break;
            if ((v >= WIN_BOUND || v <= -WIN_BOUND) && std::max(v, -v) >= WIN_SCORE - PLY_STEP * d) break;
        }
        last_nodes = nodes;
        return best_move;
    }

    // best_move_for is nnab's Engine.BestMove: the clock split, then the search.
    Move best_move_for(const Pos& pos, const Limits& lim) {
        int64_t t0 = colony::now_ns();
        colony::Budget b = colony::budget(lim, 0, 0, own_turns_left(pos), expected_moves(pos), RESERVE_DIV);
        Move m = run(pos, t0, b.soft, b.hard, b.depth, b.nodes, lim.soft_nodes);
        return m == kNoMove ? kPass : m;
    }
};

// ---- the judge session's adapter (colony/judge with colony/game/ataxx's notation) ----

struct Game {
    using Pos = ataxx::Pos;
    using Move = ataxx::Move;
    Engine* eng;

    Pos start() { return start_pos(); }
    bool parse_board(const std::string& s, Pos& p) { return ataxx::parse_board(s, p); }
    std::string str(const Pos& p) { return pos_str(p); }
    int to_move(const Pos& p) { return p.side; }
    int num_players() { return 2; }
    bool terminal(const Pos& p) { return ataxx::terminal(p); }
    Pos with_to_move(const Pos& p, int pl) { return make_pos(p.bb[O], p.bb[X], pl, p.turn); }
    Pos playable(const Pos& p) {
        if (!ataxx::terminal(p) || p.turn < kMaxTurns) return p;
        return make_pos(p.bb[O], p.bb[X], p.side, kMaxTurns - 1);
    }
    Pos apply(const Pos& p, Move m) { return ataxx::apply(p, m); }
    Pos pass(const Pos& p) { return make_pos(p.bb[O], p.bb[X], p.side ^ 1, std::min(p.turn + 1, kMaxTurns)); }
    bool judge_move(const Pos& p, const Coords& c, Move& m) { return ataxx::judge_move(p, c, m); }
    bool force(const Pos& p, const Coords& c, Pos& out) { return ataxx::force(p, c, out); }
    Coords coords(const Pos& p, Move m) { return judge_coords(p, m); }
    Move choose(const Pos& p, const Limits& lim) {
        Move m = eng->best_move_for(p, lim);
        if (!is_legal(p, m)) {  // never expected: the Mover's guard
            Move moves[kMaxMoves];
            legal_moves(p, moves);
            m = moves[0];
        }
        return m;
    }
    void new_game() { eng->new_game(); }
};

// ---- the parity tests' command mode ----
//
// One command a line on stdin, one answer a line on stdout. POS is "O X side turns" (O's and
// X's bitboards in decimal, the side to move 0 or 1, the turns played).
//   perft POS depth                  -> the perft count
//   eval POS                         -> the net's score from scratch (Net.Refresh, Evaluate)
//   line POS m1 m2 ...               -> the net's score after each move, updated incrementally
//   budget POS myMs incMs            -> soft hard depth nodes: nnab's clock split of a move
//                                       (alphabeta.Budget; times in nanoseconds)
//   engine hashMB seed noprune nolmr -> ok: a new engine (nnab.Options)
//   newgame                          -> ok: the engine's NewGame
//   search POS depth nodes           -> move score depth nodes (BestMove under Limits{Depth,
//                                       Nodes}, then Stats)
//   quit

static bool read_pos(const std::vector<std::string>& f, size_t i, Pos& p) {
    if (f.size() < i + 4) return false;
    int64_t v[4];
    for (int k = 0; k < 4; k++) {
        if (k < 2) {
            char* end;
            unsigned long long u = std::strtoull(f[i + k].c_str(), &end, 10);
            if (*end) return false;
            v[k] = int64_t(u);
        } else if (!colony::parse_int(f[i + k], v[k])) {
            return false;
        }
    }
    p = make_pos(uint64_t(v[0]), uint64_t(v[1]), int(v[2]), int(v[3]));
    return true;
}

// eval_line answers "line": the score after each of the moves f[5:], from p.
static std::string eval_line(const std::vector<std::string>& f, Pos p) {
    static Acc a[2];
    refresh(a[0], p);
    std::string out;
    for (size_t i = 5; i < f.size(); i++) {
        Move m = Move(std::atoi(f[i].c_str()));
        Acc &src = a[(i - 5) & 1], &dst = a[(i - 4) & 1];
        int to = move_to(m);
        if (m == kPass) dst = src;
        else acc_move(dst, src, p.bb, p.side, to, is_jump(m) ? move_from(m) : -1, ADJ1[to] & p.bb[p.side ^ 1]);
        p = apply(p, m);
        if (i > 5) out += ' ';
        out += std::to_string(evaluate(dst, p.side));
    }
    return out;
}

static std::string parity_command(const std::vector<std::string>& f, Engine*& e) {
    const std::string& c = f[0];
    if (c == "engine" && f.size() == 5) {
        Options o;
        o.hash_mb = std::atoi(f[1].c_str());
        o.seed = std::strtoull(f[2].c_str(), nullptr, 10);
        o.no_prune = f[3] == "1";
        o.no_lmr = f[4] == "1";
        delete e;
        e = new Engine(o);
        return "ok";
    }
    if (c == "newgame" && e) {
        e->new_game();
        return "ok";
    }
    Pos p;
    if (!read_pos(f, 1, p)) return "error";
    if (c == "perft" && f.size() == 6) return std::to_string(perft(p, std::atoi(f[5].c_str())));
    if (c == "eval" && f.size() == 5) {
        Acc a;
        refresh(a, p);
        return std::to_string(evaluate(a, p.side));
    }
    if (c == "line") return eval_line(f, p);
    if (c == "budget" && f.size() == 7) {
        Limits lim;
        lim.my_time = std::atoll(f[5].c_str()) * colony::kMillisecond;
        lim.my_inc = std::atoll(f[6].c_str()) * colony::kMillisecond;
        colony::Budget b = colony::budget(lim, 0, 0, own_turns_left(p), expected_moves(p), RESERVE_DIV);
        return std::to_string(b.soft) + " " + std::to_string(b.hard) + " " + std::to_string(b.depth) + " " +
               std::to_string(b.nodes);
    }
    if (c == "search" && f.size() == 7 && e) {
        Limits lim;
        lim.depth = std::atoi(f[5].c_str());
        lim.nodes = std::atoll(f[6].c_str());
        Move m = e->best_move_for(p, lim);
        return std::to_string(m) + " " + std::to_string(e->last_score) + " " + std::to_string(e->last_depth) + " " +
               std::to_string(e->last_nodes);
    }
    return "error";
}

static int parity() {
    std::string line;
    colony::LineReader in(stdin);
    Engine* e = nullptr;
    while (in.next(line)) {
        std::vector<std::string> f = colony::fields(line);
        if (f.empty()) continue;
        if (f[0] == "quit") break;
        std::string out = parity_command(f, e);
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    }
    delete e;
    return 0;
}

// ---- nodes per second (nnab's BenchmarkSearchStart and BenchmarkSearchMidgame) ----

static int bench() {
    Pos mid;
    parse_board("OO...XX/OOO.XX./.O...X./......./.X...O./XXX.OOO/XX...OO O", mid);
    struct Case {
        const char* name;
        Pos p;
        int depth;
    } cases[] = {{"start", start_pos(), 10}, {"midgame", mid, 8}};
    Options o;
    o.hash_mb = 16;
    o.seed = 0;
    Engine* e = new Engine(o);
    e->tt.alloc(o.hash_mb);  // outside the timing, as the Go benchmark's first search is
    int64_t all_nodes = 0;
    double all_cpu = 0, all_wall = 0;
    for (const Case& c : cases) {
        e->new_game();
        Limits lim;
        lim.depth = c.depth;
        double c0 = colony::cpu_seconds();
        int64_t t0 = colony::now_ns();
        Move m = e->best_move_for(c.p, lim);
        double wall = double(colony::now_ns() - t0) / 1e9, cpu = colony::cpu_seconds() - c0;
        all_nodes += e->last_nodes, all_cpu += cpu, all_wall += wall;
        Coords mc = judge_coords(c.p, m);
        std::printf("%-8s depth %2d  move %s  score %6d  nodes %9lld  %.3f s  %.0f nodes/s  %.0f nodes/cpu-s\n", c.name,
                    c.depth, colony::coords_str(mc).c_str(), e->last_score, (long long)e->last_nodes, wall,
                    e->last_nodes / std::max(wall, 1e-9), e->last_nodes / std::max(cpu, 1e-9));
    }
    std::printf("total    nodes %lld  %.0f nodes/s  %.0f nodes/cpu-s  (kernels: %s)\n", (long long)all_nodes,
                all_nodes / std::max(all_wall, 1e-9), all_nodes / std::max(all_cpu, 1e-9), kernel_name());
    return 0;
}

}  // namespace ataxx

int main(int argc, char** argv) {
    ataxx::init_tables();
    ataxx::init_net();
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--parity") return ataxx::parity();
        if (a == "--bench") return ataxx::bench();
#ifdef COLONY_X86
        if (a == "--portable") ataxx::g_kernel = ataxx::kSSE2;
#endif
        if (a == "--scalar") ataxx::g_kernel = ataxx::kScalar;
    }
    static ataxx::Engine eng{ataxx::Options{}};
    ataxx::Game g{&eng};
    colony::JudgeSession<ataxx::Game> s(g);
    return s.run();
}
