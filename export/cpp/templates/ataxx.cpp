// @@HEADER@@
//
// Bacteria War (Ataxx 7x7) agent: Colony's nnab engine (colony/game/ataxx/nnab) ported to
// C++17 from the template export/cpp/templates/ataxx.cpp. The bitboards follow colony/game/ataxx, the
// search colony/engine/alphabeta as nnab configures it, the evaluation colony/nn/nnue's
// integer net. The exporter fills in the search constants and the net's weights from the Go
// side; the parity tests of colony/export/cpp check that both sides search the same trees.
//
// Build: g++ -std=c++17 -O2 Main.cpp   (standard library only)
// Run:   ./a.out              the judge protocol on stdin/stdout
//        ./a.out --bench      nodes per second on fixed positions (--portable --bench: SSE2
//                             kernels, --scalar --bench: plain C++ ones)
//        ./a.out --parity     the parity tests' command mode (export/cpp/bacteria_war_test.go)

// @@COMMON@@

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace ataxx {

using colony::Coords;
using colony::ctz;
using colony::Limits;
using colony::popcnt;

// ---- constants from the Go side (export/cpp/bacteria_war.go) ----
// @@CONFIG@@

// SearchConfig is nnab's configuration of colony/engine/alphabeta (colony::Searcher's C).
struct SearchConfig {
    // @@SEARCH@@
};

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

// ---- the integer net (colony/nn/nnue.Net, the scheme without L1; both output perspectives or
// the side to move's only) ----

constexpr int H = NET_HIDDEN;  // lanes per perspective
constexpr int kRow = 2 * H;    // a row holds both perspectives' lanes, player 0's first
// The output reads both accumulators, the side to move's first (kOut = 2H weights per bucket),
// or with NET_STM_ONLY the side to move's only (kOut = H); NET_BUCKETS output layers, OUT_W
// bucket b's at OUT_W[b * kOut], read by the position's piece count (bucket_of).
constexpr int kOut = NET_STM_ONLY ? H : 2 * H;

struct alignas(32) Acc {
    int16_t v[kRow];
};

alignas(32) static int16_t PLACE[2][kSquares][kRow];  // player p's piece appears on c
alignas(32) static int16_t FLIP[2][kSquares][kRow];   // the piece on c turns from 1-p's to p's
alignas(32) static int16_t INIT[kRow];
alignas(32) static int16_t OUTW16[NET_BUCKETS][kOut];

// bucket_of is nnue.Arch.Bucket: n*NET_BUCKETS/(kSquares+1) for the n pieces on the board.
inline int bucket_of(const Pos& p) {
    return NET_BUCKETS < 2 ? 0 : __builtin_popcountll(p.bb[0] | p.bb[1]) * NET_BUCKETS / (kSquares + 1);
}
// Window input (NET_WINDOWS, colony/nn/nnue's windows): FT[w * 81 + code] is what window w
// (numbered row-major by its top-left cell) adds to a perspective's lanes in state code as seen
// from that perspective; perspective 1 reads the code with own and other exchanged. The updates
// read FT itself, one row per perspective and window (half the bytes of a table holding both).
constexpr int kWinStates = 81;
constexpr int kWinW = NET_WINDOWS ? NET_WIDTH : 1;
constexpr int kWindows = NET_WINDOWS ? (kSquares / NET_WIDTH - 1) * (NET_WIDTH - 1) : 1;
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
}

// win_rows sets r[v] to perspective v's row of the window with top-left cell tl on the position
// bb (nnue's windows: player 0's pieces are perspective 0's own, perspective 1's other).
inline void win_rows(const uint64_t* bb, int tl, const int16_t* r[2]) {
    int o = int(bb[0] >> tl & 3) | int(bb[0] >> (tl + kWinW) & 3) << 2;
    int x = int(bb[1] >> tl & 3) | int(bb[1] >> (tl + kWinW) & 3) << 2;
    const int16_t(*base)[H] = FT + WIN_INDEX[tl] * kWinStates;
    r[0] = base[POW3[o] + 2 * POW3[x]];
    r[1] = base[POW3[x] + 2 * POW3[o]];
}

// decode_rice_i16 fills out[n] from the base64 text s of the Rice code at parameter k of n
// int16s (how the export writes the feature weights FT: its riceEncode). Each weight is q
// one-bits, a zero bit and the k low bits of z (or, after 15 one-bits, z's 16 bits), z the
// zigzag of the weight (2v, or -2v-1 below 0); bits fill each byte from its lowest. Text that
// is damaged, ends early or holds more than n weights ends the program.
static void decode_rice_i16(const char* s, size_t len, int k, int16_t* out, size_t n) {
    std::vector<uint8_t> bytes;
    bytes.reserve(len * 3 / 4);
    uint32_t acc = 0;
    int bits = 0;
    bool padded = false;  // a padding '=' was seen: only more of them may follow
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '=') {
            padded = true;
            continue;
        }
        int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26
              : c >= '0' && c <= '9' ? c - '0' + 52 : c == '+' ? 62 : c == '/' ? 63 : -1;
        if (v < 0 || padded) {
            std::fprintf(stderr, "colony: damaged weight text at character %zu\n", i);
            std::exit(1);
        }
        acc = acc << 6 | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(uint8_t(acc >> bits));
            acc &= (uint32_t(1) << bits) - 1;
        }
    }
    const size_t total = bytes.size() * 8;
    size_t pos = 0;  // bits read
    auto bit = [&]() -> uint32_t {
        if (pos >= total) {
            std::fprintf(stderr, "colony: the weight text ends before its %zu weights\n", n);
            std::exit(1);
        }
        uint32_t b = bytes[pos >> 3] >> (pos & 7) & 1;
        pos++;
        return b;
    };
    auto field = [&](int width) {
        uint32_t z = 0;
        for (int i = 0; i < width; i++) z |= bit() << i;
        return z;
    };
    for (size_t i = 0; i < n; i++) {
        uint32_t q = 0;
        while (q < 15 && bit()) q++;
        uint32_t z = q < 15 ? q << k | field(k) : field(16);
        if (z > 0xFFFF) {
            std::fprintf(stderr, "colony: damaged weight text at weight %zu\n", i);
            std::exit(1);
        }
        out[i] = int16_t(z & 1 ? -int32_t(z >> 1) - 1 : int32_t(z >> 1));
    }
    // Only the last byte's unused high bits may follow, and they are 0.
    if (total - pos >= 8 || (pos < total && bytes.back() >> (pos & 7))) {
        std::fprintf(stderr, "colony: the weight text holds more than its %zu weights\n", n);
        std::exit(1);
    }
}

static const char* kernel_name() { return g_kernel == kAVX2 ? "avx2" : g_kernel == kSSE2 ? "sse2" : "scalar"; }

static void init_net() {
    decode_rice_i16(FT_B64, sizeof FT_B64 - 1, FT_RICE_K, &FT[0][0], sizeof FT / sizeof FT[0][0]);
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
    for (int i = 0; i < NET_BUCKETS * kOut; i++) mx = std::max<int64_t>(mx, std::abs(int64_t(OUT_W[i])));
    // madd's int32 lanes: SSE2's four take kOut/4 products each (AVX2's eight, kOut/8), each an
    // activation in [0, NET_QA] (CReLU's clip, SCReLU's square shifted back) times a weight.
    g_simd_eval = mx <= 32767 && int64_t(kOut / 4) * NET_QA * mx < (int64_t(1) << 31);
    for (int b = 0; b < NET_BUCKETS; b++)
        for (int i = 0; i < kOut; i++) OUTW16[b][i] = int16_t(OUT_W[b * kOut + i]);
#ifdef COLONY_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) g_kernel = kAVX2;
#endif
}

inline void acc_add(int16_t* d, const int16_t* r, int n = kRow) {
    for (int i = 0; i < n; i++) d[i] = int16_t(uint16_t(d[i]) + uint16_t(r[i]));
}

// refresh is Net.Refresh.
static void refresh(Acc& a, const Pos& p) {
    std::memcpy(a.v, INIT, sizeof INIT);
    if (NET_WINDOWS)
        for (uint64_t b = WIN_TOP_LEFT; b; b &= b - 1) {
            const int16_t* r[2];
            win_rows(p.bb, ctz(b), r);
            for (int v = 0; v < 2; v++) acc_add(a.v + v * H, r[v], H);
        }
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

// WinMove is a window net's move: the touched windows' old rows (sub) and new ones (add), per
// perspective.
struct WinMove {
    int n = 0;
    const int16_t* add[2][kWindows];
    const int16_t* sub[2][kWindows];
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
        const int16_t *o[2], *a[2];
        win_rows(before, ctz(touched), o);
        win_rows(after, ctz(touched), a);
        for (int v = 0; v < 2; v++) w.sub[v][w.n] = o[v], w.add[v][w.n] = a[v];
    }
}

static void win_apply_scalar(Acc& dst, const Acc& src, const WinMove& w) {
    for (int v = 0; v < 2; v++)
        for (int i = 0; i < H; i++) {
            uint16_t x = uint16_t(src.v[v * H + i]);
            for (int k = 0; k < w.n; k++) x = uint16_t(x + uint16_t(w.add[v][k][i]) - uint16_t(w.sub[v][k][i]));
            dst.v[v * H + i] = int16_t(x);
        }
}

// act is the accumulator's activation of one lane: CReLU's clip, or SCReLU's square of it
// shifted back to scale NET_QA (rounding down).
inline int32_t act(int16_t v) {
    int32_t c = clip(v);
    return NET_SCRELU ? (c * c) >> NET_SHIFT : c;
}

static int64_t output_scalar(const int16_t* us, const int16_t* them, int bucket) {
    const int32_t* w = OUT_W + bucket * kOut;
    int64_t s = OUT_B[bucket];
    for (int i = 0; i < H; i++) {
        s += int64_t(act(us[i])) * w[i];
        if (!NET_STM_ONLY) s += int64_t(act(them[i])) * w[H + i];
    }
    return s;
}

#ifdef COLONY_X86
// The SIMD kernels, written once for a vector type V of W int16 lanes: the move's rows added
// in one pass, and the output's activated lanes times the int16 weights summed in int32 pairs.
// SCReLU squares a clipped lane c <= 2^NET_SHIFT <= 2^10 from its product's high and low 16
// bits: (c*c) >> NET_SHIFT = hi << (16 - NET_SHIFT) | lo >> NET_SHIFT (logical), as Go's
// dotSqSIMD.
#define COLONY_KERNELS(SUFFIX, TARGET, V, W, LOAD, STORE, ADD16, SUB16, MAX16, MIN16, SET16, ZERO, MADD, ADD32, \
                       MULHI16, MULLO16, SLLI16, SRLI16, OR)                                                    \
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
        for (int p = 0; p < 2; p++) {                                                                           \
            const int16_t* s = src.v + p * H;                                                                   \
            int16_t* d = dst.v + p * H;                                                                         \
            int i = 0;                                                                                          \
            for (; i + 4 * W <= H; i += 4 * W) { /* four vectors stay in registers over the windows */          \
                V v0 = LOAD((const V*)(s + i)), v1 = LOAD((const V*)(s + i + W));                               \
                V v2 = LOAD((const V*)(s + i + 2 * W)), v3 = LOAD((const V*)(s + i + 3 * W));                   \
                for (int k = 0; k < w.n; k++) {                                                                 \
                    const int16_t *a = w.add[p][k] + i, *b = w.sub[p][k] + i;                                   \
                    v0 = SUB16(ADD16(v0, LOAD((const V*)a)), LOAD((const V*)b));                                \
                    v1 = SUB16(ADD16(v1, LOAD((const V*)(a + W))), LOAD((const V*)(b + W)));                    \
                    v2 = SUB16(ADD16(v2, LOAD((const V*)(a + 2 * W))), LOAD((const V*)(b + 2 * W)));            \
                    v3 = SUB16(ADD16(v3, LOAD((const V*)(a + 3 * W))), LOAD((const V*)(b + 3 * W)));            \
                }                                                                                               \
                STORE((V*)(d + i), v0);                                                                         \
                STORE((V*)(d + i + W), v1);                                                                     \
                STORE((V*)(d + i + 2 * W), v2);                                                                 \
                STORE((V*)(d + i + 3 * W), v3);                                                                 \
            }                                                                                                   \
            for (; i < H; i += W) {                                                                             \
                V v = LOAD((const V*)(s + i));                                                                  \
                for (int k = 0; k < w.n; k++)                                                                   \
                    v = SUB16(ADD16(v, LOAD((const V*)(w.add[p][k] + i))), LOAD((const V*)(w.sub[p][k] + i)));  \
                STORE((V*)(d + i), v);                                                                          \
            }                                                                                                   \
        }                                                                                                       \
    }                                                                                                           \
    TARGET static inline V act_##SUFFIX(V x, V zero, V top) {                                                   \
        V c = MIN16(MAX16(x, zero), top);                                                                       \
        if (!NET_SCRELU) return c;                                                                              \
        return OR(SLLI16(MULHI16(c, c), 16 - NET_SHIFT), SRLI16(MULLO16(c, c), NET_SHIFT));                     \
    }                                                                                                           \
    TARGET static int64_t output_##SUFFIX(const int16_t* us, const int16_t* them, int bucket) {                 \
        const V zero = ZERO(), top = SET16(int16_t(NET_QA));                                                    \
        const int16_t* ow = OUTW16[bucket];                                                                     \
        V s = ZERO();                                                                                           \
        for (int i = 0; i < H; i += W) {                                                                        \
            V a = act_##SUFFIX(LOAD((const V*)(us + i)), zero, top);                                            \
            s = ADD32(s, MADD(a, LOAD((const V*)(ow + i))));                                                    \
            if (NET_STM_ONLY) continue;                                                                         \
            V b = act_##SUFFIX(LOAD((const V*)(them + i)), zero, top);                                          \
            s = ADD32(s, MADD(b, LOAD((const V*)(ow + H + i))));                                                \
        }                                                                                                       \
        alignas(32) int32_t out[W / 2];                                                                         \
        STORE((V*)out, s);                                                                                      \
        int64_t t = OUT_B[bucket];                                                                              \
        for (int k = 0; k < W / 2; k++) t += out[k];                                                            \
        return t;                                                                                               \
    }

COLONY_KERNELS(avx2, __attribute__((target("avx2"))), __m256i, 16, _mm256_load_si256, _mm256_store_si256,
               _mm256_add_epi16, _mm256_sub_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_set1_epi16,
               _mm256_setzero_si256, _mm256_madd_epi16, _mm256_add_epi32, _mm256_mulhi_epi16, _mm256_mullo_epi16,
               _mm256_slli_epi16, _mm256_srli_epi16, _mm256_or_si256)
COLONY_KERNELS(sse2, , __m128i, 8, _mm_load_si128, _mm_store_si128, _mm_add_epi16, _mm_sub_epi16, _mm_max_epi16,
               _mm_min_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_madd_epi16, _mm_add_epi32, _mm_mulhi_epi16,
               _mm_mullo_epi16, _mm_slli_epi16, _mm_srli_epi16, _mm_or_si128)
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

// evaluate is Net.Evaluate: the score of the side to move of p (hundredths of a piece), a
// being p's accumulator.
static int32_t evaluate(const Acc& a, const Pos& p) {
    const int stm = p.side, bucket = bucket_of(p);
    const int16_t* us = a.v + stm * H;
    const int16_t* them = a.v + (stm ^ 1) * H;
    int64_t out;
#ifdef COLONY_X86
    if (g_simd_eval && g_kernel == kAVX2) out = output_avx2(us, them, bucket);
    else if (g_simd_eval && g_kernel == kSSE2) out = output_sse2(us, them, bucket);
    else
#endif
        out = output_scalar(us, them, bucket);
    return int32_t((out * SCORE_MUL) >> 32);
}

// ---- Bacteria War's search hooks (colony/game/ataxx/abrules.Rules, nnab's hooks) ----

using C = SearchConfig;

inline int32_t terminal_score(const Pos& p, int ply) {
    int side = p.side;
    int32_t diff = popcnt(p.bb[side]) - popcnt(p.bb[side ^ 1]);
    if (diff > 0) return C::WIN_SCORE - C::PLY_STEP * ply + diff;
    if (diff < 0) return -C::WIN_SCORE + C::PLY_STEP * ply + diff;
    return 0;
}

inline bool stuck_score(const Pos& p, int ply, int32_t& v) {
    int side = p.side;
    uint64_t empty = empty_cells(p);
    int ne = popcnt(empty);
    int32_t diff = popcnt(p.bb[side]) - popcnt(p.bb[side ^ 1]) - ne;
    // Only the stuck side's loss is proven: when the fill would not lose for it, the opponent
    // may leap instead and win by the captures that follow (abrules.StuckScore).
    if (diff >= 0 || (kMaxTurns - int(p.turn)) / 2 < ne) return false;
    uint64_t reach = dilate(p.bb[side ^ 1]) & empty;
    for (;;) {
        uint64_t n = dilate(reach) & empty;
        if (n == reach) break;
        reach = n;
    }
    if (reach != empty) return false;
    v = -C::WIN_SCORE + C::PLY_STEP * (ply + 2 * ne) + diff;
    return true;
}

// order_value is the static ordering value of m (ataxxab's orderKey and Rules.Moves): the swing
// in piece difference (captures count twice, a division adds one), a leap penalised for the hole
// it leaves next to own pieces, and QUIET_LEAP taken off a leap that captures nothing.
inline int32_t order_value(const Pos& p, Move m, uint64_t us) {
    int to = move_to(m);
    int capt = captures(p, m);
    int32_t k = 2000 * capt;
    if (is_clone(m)) k += 1000;
    else k -= 700 + 250 * popcnt(ADJ1[move_from(m)] & us & ~(1ULL << to));
    if (!is_clone(m) && capt == 0) k -= QUIET_LEAP;
    return k;
}

inline int expected_moves(const Pos& p) {
    int e = popcnt(empty_cells(p));
    int k = std::min(std::max(2 * (50 - e), 25), 75);
    int n = std::max(((e + 2) / 2 * 100 + k) / (2 * k), 3);
    int r = own_turns_left(p);
    if (r < n) n = std::max(r, 1);
    return n;
}

// Delta is how the accumulator of a ply follows from its parent's.
struct Delta {
    bool pass;
    int mover, to, from;
    uint64_t flips;
    uint64_t before[2];  // the pieces before the move
};

// Hooks are nnab's part of the searcher (colony::Searcher's G): Bacteria War's rules, the
// table key with the turn count, and the net's evaluation on a per-ply stack of accumulators,
// each brought up to date from its parent's only when its node is evaluated.
struct Hooks {
    using Pos = ataxx::Pos;
    using Move = ataxx::Move;
    static constexpr Move kNoMove = ataxx::kNoMove, kPass = ataxx::kPass;
    static constexpr int kMaxMoves = ataxx::kMaxMoves;

    Acc acc[C::MAX_PLY + 1];
    bool acc_ok[C::MAX_PLY + 1];
    Delta delta[C::MAX_PLY + 1];

    Hooks() {
        std::memset(acc_ok, 0, sizeof acc_ok);
        std::memset(delta, 0, sizeof delta);
        forget();
    }

    static uint64_t hash(const Pos& p) { return p.hash; }
    static int to_move(const Pos& p) { return p.side; }

    // enter: a finished game's score.
    static bool enter(const Pos& p, int ply, int&, int32_t&, int32_t&, int32_t& score) {
        if (!terminal(p)) return false;
        score = terminal_score(p, ply);
        return true;
    }

    // key mixes the turn count into the hash: the turn cap makes a position's value depend on it.
    static uint64_t key(const Pos& p) { return p.hash ^ TURN_KEYS[p.turn]; }

    // root computes the root accumulator from scratch.
    void root(const Pos& p) {
        refresh(acc[0], p);
        acc_ok[0] = true;
    }

    // play returns the child of p by m (p at ply) and records its accumulator delta.
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

    // ensure brings the accumulator of ply up to date from its parent's.
    void ensure(int ply) {
        if (acc_ok[ply]) return;
        ensure(ply - 1);
        const Delta& d = delta[ply];
        if (d.pass) acc[ply] = acc[ply - 1];
        else acc_move(acc[ply], acc[ply - 1], d.before, d.mover, d.to, d.from, d.flips);
        acc_ok[ply] = true;
    }

    // Correction history (nnab's corrections): [empty cells, own pieces][side to move][hash],
    // in 1/kCorrGrain of a score unit.
    static constexpr bool kCorrects = true;
    static constexpr int kCorrBits = 14;
    static constexpr int32_t kCorrGrain = 256, kCorrMax = 48;
    int32_t corr[2][2][1 << kCorrBits];

    static int corr_index(uint64_t b) { return int((b * 0x9e3779b97f4a7c15ULL) >> (64 - kCorrBits)); }

    // entries are p's two entries: its empty cells' and its side to move's own pieces'.
    int32_t* entry_empty(const Pos& p) { return &corr[0][p.side][corr_index(empty_cells(p))]; }
    int32_t* entry_own(const Pos& p) { return &corr[1][p.side][corr_index(p.bb[p.side])]; }

    // correction is p's correction in score units: the mean of its two entries.
    int32_t correction(const Pos& p) { return (*entry_empty(p) + *entry_own(p)) / (2 * kCorrGrain); }

    // after moves p's entries towards the search's score less the net's raw one, unless the
    // bound leaves the error's sign open.
    void after(const Pos& p, int ply, int depth, int32_t best, uint8_t bound) {
        int32_t *a = entry_empty(p), *b = entry_own(p);
        int32_t raw = raw_value(p, ply), st = raw + (*a + *b) / (2 * kCorrGrain);
        if ((bound == colony::kLower && best <= st) || (bound == colony::kUpper && best >= st)) return;
        int32_t target = std::min(std::max(best - raw, -kCorrMax), kCorrMax) * kCorrGrain;
        int32_t w = std::min(8 * (depth + 1), 128);
        *a += (target - *a) * w / 256;
        *b += (target - *b) * w / 256;
    }

    // forget clears what the game's searches learnt.
    void forget() { std::memset(corr, 0, sizeof corr); }

    static int32_t clamp_eval(int32_t v) { return std::min(std::max(v, -C::WIN_BOUND + 1), C::WIN_BOUND - 1); }

    // raw_value is the net's own score of p (at ply) for its side to move.
    int32_t raw_value(const Pos& p, int ply) {
        ensure(ply);
        return clamp_eval(evaluate(acc[ply], p));
    }

    // static_value is the net's score of p (at ply), corrected by what the game's searches learnt.
    int32_t static_value(const Pos& p, int ply) { return clamp_eval(raw_value(p, ply) + correction(p)); }

    // leaf is a blocked side's known result, else the static value.
    int32_t leaf(const Pos& p, int ply) {
        int32_t v;
        if (!has_move(p) && stuck_score(p, ply, v)) return v;
        return static_value(p, ply);
    }

    static bool stuck(const Pos& p, int ply, int32_t& v) { return stuck_score(p, ply, v); }

    // legal reports whether the table move or killer m is legal in p.
    static bool legal(const Pos& p, Move m) { return m < kNoMove && is_legal(p, m); }

    // moves writes the legal moves and their sort keys: the moves' number.
    static int moves(const Pos& p, Move* mv, colony::Order<Move, C>& o, int& side) {
        int n = legal_moves(p, mv);
        side = p.side;
        if (n == 0 || mv[0] == kPass) return n;
        o.side(side);
        uint64_t us = p.bb[p.side];
        for (int i = 0; i < n; i++) o.keys[i] = o.key(mv[i], order_value(p, mv[i], us));
        return n;
    }
};

// ---- the engine (nnab: colony/engine/alphabeta with the hooks above) ----

// Options are nnab.Options: the agent's defaults.
struct Options {
    int hash_mb = DEFAULT_HASH_MB;
    uint64_t seed = AGENT_SEED;
    bool no_lmr = false, no_prune = false;
};

struct Engine {
    colony::AlphaBeta<Hooks, C> ab;

    explicit Engine(const Options& o) : ab(colony::SearchOptions{o.hash_mb, o.seed, o.no_lmr, o.no_prune}) {}

    void new_game() { ab.new_game(); }

    // budget is nnab's plan of a move (alphabeta.Budget over the turn cap's reserve and the
    // expected moves).
    colony::Budget budget(const Pos& pos, const Limits& lim) {
        return ab.budget(lim, own_turns_left(pos), expected_moves(pos));
    }

    // best_move_for is nnab's Engine.BestMove: the plan, then the search.
    Move best_move_for(const Pos& pos, const Limits& lim) {
        colony::Budget b = budget(pos, lim);
        Move m = ab.search(pos, b, {});
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
    int64_t last_nodes() { return eng->ab.last_nodes; }
    bool report(int& depth, int32_t& score) {
        depth = eng->ab.last_depth, score = eng->ab.last_score;
        return depth > 0;
    }
};

// ---- the parity tests' command mode ----
//
// One command a line on stdin, one answer a line on stdout. POS is "O X side turns" (O's and
// X's bitboards in decimal, the side to move 0 or 1, the turns played).
//   perft POS depth                  -> the perft count
//   eval POS                         -> the net's score from scratch (Net.Refresh, Evaluate)
//   line POS m1 m2 ...               -> the net's score after each move, updated incrementally
//   budget POS myMs incMs            -> soft hard depth nodes: nnab's plan of a move on a fresh
//                                       time manager (alphabeta.Budget; times in nanoseconds)
//   tm SPEC                          -> ok: a new time manager with the engine's rules changed by
//                                       SPEC ("name=value,...", "-": none), or error
//   tmstart left inc perMs own exp   -> optimum maximum quick: TimeManager.Start
//   tmiter depth elapsed best score bestNodes nodes -> stop factor: TimeManager.Iteration
//   tmreset                          -> ok: TimeManager.Reset
//   engine hashMB seed noprune nolmr -> ok: a new engine (nnab.Options)
//   newgame                          -> ok: the engine's NewGame
//   search POS depth nodes nodeClock -> move score depth nodes (BestMove under Limits{Depth,
//                                       Nodes, NodeClock}, then Stats)
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
        out += std::to_string(evaluate(dst, p));
    }
    return out;
}

static std::string parity_command(const std::vector<std::string>& f, Engine*& e) {
    static colony::TimeManager tm{C::TIME};
    const std::string& c = f[0];
    if (c == "tm" && f.size() == 2) {
        tm = colony::TimeManager{C::TIME};
        return f[1] == "-" || colony::set_time_params(tm.p, f[1]) ? "ok" : "error";
    }
    if (c == "tmreset") {
        tm.reset();
        return "ok";
    }
    if (c == "tmstart" && f.size() == 6) {
        tm.start(std::atoll(f[1].c_str()), std::atoll(f[2].c_str()), std::atoll(f[3].c_str()), std::atoi(f[4].c_str()),
                 std::atoi(f[5].c_str()));
        return std::to_string(tm.optimum) + " " + std::to_string(tm.maximum) + " " + (tm.quick ? "1" : "0");
    }
    if (c == "tmiter" && f.size() == 7) {
        bool stop = tm.iteration(std::atoi(f[1].c_str()), std::atoll(f[2].c_str()), uint32_t(std::atoll(f[3].c_str())),
                                 int32_t(std::atoll(f[4].c_str())), std::atoll(f[5].c_str()), std::atoll(f[6].c_str()));
        return std::string(stop ? "1" : "0") + " " + std::to_string(tm.last_factor);
    }
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
        return std::to_string(evaluate(a, p));
    }
    if (c == "line") return eval_line(f, p);
    if (c == "budget" && f.size() == 7) {
        Limits lim;
        lim.my_time = std::atoll(f[5].c_str()) * colony::kMillisecond;
        lim.my_inc = std::atoll(f[6].c_str()) * colony::kMillisecond;
        colony::TimeManager fresh{C::TIME};
        colony::Budget b = colony::budget(fresh, lim, 0, 0, own_turns_left(p), expected_moves(p));
        return std::to_string(b.soft()) + " " + std::to_string(b.hard) + " " + std::to_string(b.depth) + " " +
               std::to_string(b.nodes);
    }
    if (c == "search" && f.size() == 8 && e) {
        Limits lim;
        lim.depth = std::atoi(f[5].c_str());
        lim.nodes = std::atoll(f[6].c_str());
        lim.node_clock = std::atoll(f[7].c_str());
        Move m = e->best_move_for(p, lim);
        return std::to_string(m) + " " + std::to_string(e->ab.last_score) + " " + std::to_string(e->ab.last_depth) +
               " " + std::to_string(e->ab.last_nodes);
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
    e->ab.tt.alloc(o.hash_mb);  // outside the timing, as the Go benchmark's first search is
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
        all_nodes += e->ab.last_nodes, all_cpu += cpu, all_wall += wall;
        Coords mc = judge_coords(c.p, m);
        std::printf("%-8s depth %2d  move %s  score %6d  nodes %9lld  %.3f s  %.0f nodes/s  %.0f nodes/cpu-s\n", c.name,
                    c.depth, colony::coords_str(mc).c_str(), e->ab.last_score, (long long)e->ab.last_nodes, wall,
                    e->ab.last_nodes / std::max(wall, 1e-9), e->ab.last_nodes / std::max(cpu, 1e-9));
    }
    std::printf("total    nodes %lld  %.0f nodes/s  %.0f nodes/cpu-s  (kernels: %s)\n", (long long)all_nodes,
                all_nodes / std::max(all_wall, 1e-9), all_nodes / std::max(all_cpu, 1e-9), kernel_name());
    return 0;
}

}  // namespace ataxx

int main(int argc, char** argv) {
    ataxx::init_tables();
    ataxx::init_net();
    int64_t node_clock = 0;
    std::string tm_spec;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--parity") return ataxx::parity();
        if (a == "--bench") return ataxx::bench();
        // --node-clock N: a game of N nodes a side, spent by the time manager (arena -node-clock);
        // --tm SPEC: the time manager's rules changed ("name=value,...", engine.TimeParams.Set).
        if (a == "--tm" && i + 1 < argc) {
            tm_spec = argv[++i];
            continue;
        }
        if (a == "--node-clock" && i + 1 < argc) {
            if (!colony::parse_int(argv[++i], node_clock) || node_clock < 1) {
                std::fprintf(stderr, "agent: --node-clock wants a number of nodes >= 1, not \"%s\"\n", argv[i]);
                return 2;
            }
            continue;
        }
#ifdef COLONY_X86
        if (a == "--portable") ataxx::g_kernel = ataxx::kSSE2;
#endif
        if (a == "--scalar") ataxx::g_kernel = ataxx::kScalar;
    }
    static ataxx::Engine eng{ataxx::Options{}};
    if (!tm_spec.empty() && !colony::set_time_params(eng.ab.tm.p, tm_spec)) {
        std::fprintf(stderr, "agent: bad --tm rules \"%s\"\n", tm_spec.c_str());
        return 2;
    }
    ataxx::Game g{&eng};
    colony::JudgeSession<ataxx::Game> s(g);
    s.node_clock = node_clock;
    return s.run();
}
