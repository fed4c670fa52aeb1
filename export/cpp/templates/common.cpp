// ---- common.cpp: Colony's game-agnostic C++ runtime (export/cpp/templates/common.cpp) ----
//
// The judge protocol (colony/judge: READY/OK, TURN, OPP, POSITION, FINISH), the clock helpers
// of the alpha-beta engines (colony/engine.Spendable, colony/engine/alphabeta.Budget and
// ClockSplit), splitmix64 (colony/internal/splitmix), small text helpers, and the alpha-beta
// search (colony/engine/alphabeta: Searcher, AlphaBeta) with its transposition table
// (colony/engine/tt: Table). Standard library only. A game's template includes this file,
// gives the session its adapter (JudgeSession) and the searcher its hooks and configuration.

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace colony {

// Durations are nanoseconds in int64, as Go's time.Duration.
constexpr int64_t kMillisecond = 1000000;
constexpr int64_t kSecond = 1000 * kMillisecond;

inline int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// CPU time of the process in seconds (single-threaded programs: the thread's).
inline double cpu_seconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

// ---- bits ----

inline int ctz(uint64_t b) { return __builtin_ctzll(b); }           // b != 0
inline int clz(uint64_t b) { return b ? __builtin_clzll(b) : 64; }  // 64 for 0
// popcnt counts bits without the popcnt instruction, which -O2 alone does not assume (the
// builtin would call libgcc).
inline int popcnt(uint64_t b) {
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((b * 0x0101010101010101ULL) >> 56);
}

// ---- splitmix64 (colony/internal/splitmix) ----
constexpr uint64_t kGamma = 0x9E3779B97F4A7C15ULL;

inline uint64_t sm_finalize(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
inline uint64_t sm_mix(uint64_t z) { return sm_finalize(z + kGamma); }
inline uint64_t sm_next(uint64_t& s) {
    s += kGamma;
    return sm_finalize(s);
}

// ---- clock (colony/engine, colony/engine/alphabeta) ----

// Limits are colony/engine.Limits: zero fields mean no such limit.
struct Limits {
    int64_t my_time = 0, opp_time = 0, my_inc = 0, move_time = 0;
    int depth = 0;
    int64_t nodes = 0, soft_nodes = 0;
    int64_t node_clock = 0;  // the nodes left of a node clock (0: none)
};

constexpr int64_t kMinMoveCost = 2 * kMillisecond;  // engine.MinMoveCost
constexpr int64_t kDefaultMoveTime = kSecond;       // alphabeta.DefaultMoveTime

// TimeParams is engine.TimeParams, field for field and in its order (the exporter writes the
// engine's as SearchConfig::TIME; set_time_params reads "name=value,..." as TimeParams.Set).
struct TimeParams {
    int64_t move_cost_us, reserve_div, reserve_max_ms, horizon, opt_pm, max_pm, max_div, start_pm;
    int64_t share_depth, share_base, share_mult, stable_depth, stable_max, stable_step, stable_min;
    int64_t drop_depth, drop_pm, drop_max, nodes_per_ms;
};
constexpr int kTimeParams = 19;
inline int64_t* time_param(TimeParams& p, int i) { return &p.move_cost_us + i; }
inline const char* time_param_name(int i) {
    static const char* names[kTimeParams] = {"movecostus", "reservediv", "reservemaxms", "horizon",   "optpm",
                                             "maxpm",      "maxdiv",     "startpm",      "sharedepth", "sharebase",
                                             "sharemult",  "stabledepth", "stablemax",   "stablestep", "stablemin",
                                             "dropdepth",  "droppm",     "dropmax",      "nodesperms"};
    return names[i];
}

// set_time_params changes the fields of p named in spec, "name=value,..." (names
// case-insensitive); false for an unknown name, a bad value or rules that cannot plan a move.
inline bool set_time_params(TimeParams& p, const std::string& spec) {
    size_t i = 0;
    while (i <= spec.size()) {
        size_t j = spec.find(',', i);
        if (j == std::string::npos) j = spec.size();
        std::string kv = spec.substr(i, j - i);
        i = j + 1;
        if (kv.empty()) continue;
        size_t eq = kv.find('=');
        if (eq == std::string::npos) return false;
        std::string name = kv.substr(0, eq);
        for (char& c : name) c = char(std::tolower((unsigned char)c));
        char* end;
        long long v = std::strtoll(kv.c_str() + eq + 1, &end, 10);
        if (*end || eq + 1 == kv.size() || v < 0) return false;
        int k = -1;
        for (int n = 0; n < kTimeParams; n++)
            if (name == time_param_name(n)) k = n;
        if (k < 0) return false;
        *time_param(p, k) = v;
    }
    return p.reserve_div >= 1 && p.max_div >= 1 && p.opt_pm >= 1 && p.max_pm >= 1 && p.start_pm >= 1 &&
           p.nodes_per_ms >= 1;
}

// TimeManager is engine.TimeManager: it plans a move from a clock in ticks (nanoseconds, or
// nodes of a node clock) and decides after each iteration whether to go on, integer for
// integer the Go one (a parity test drives both through the same scripts).
struct TimeManager {
    TimeParams p;
    int64_t optimum = 0, maximum = 0;
    bool quick = false;
    uint32_t best = 0;
    int64_t stable = 0, iterations = 0, last_factor = 1000;
    int32_t ref = 0, last = 0;
    bool have_ref = false, have_last = false;

    void reset() { have_ref = have_last = false; }

    // start is TimeManager.Start: the plan of a move from the clock (left, inc, per_ms ticks a
    // millisecond), the own moves the game may still ask for and those it is likely to.
    void start(int64_t left, int64_t inc, int64_t per_ms, int own_moves_left, int expected_moves) {
        if (have_last) ref = last, have_ref = true;
        have_last = false, iterations = 0, stable = 0, last_factor = 1000;
        int64_t cost = p.move_cost_us * per_ms / 1000;
        left -= int64_t(std::max(own_moves_left, 0)) * cost;
        quick = left < 2 * cost;
        if (quick) {
            optimum = maximum = std::max<int64_t>(cost / 2, 1);
            return;
        }
        int64_t reserve = std::min(left / p.reserve_div, p.reserve_max_ms * per_ms);
        int64_t avail = left - reserve;
        int64_t moves = std::max(expected_moves, 1);
        if (p.horizon > 0) moves = std::min(moves, p.horizon);
        int64_t opt = avail * p.opt_pm / 1000 / moves + inc * 3 / 4;
        int64_t maxi = std::min(opt * p.max_pm / 1000, avail / p.max_div + inc * 3 / 4);
        opt = std::min(opt, maxi);
        if (maxi < per_ms) maxi = opt = per_ms;
        optimum = opt, maximum = maxi;
    }

    // iteration is TimeManager.Iteration: true when the search should stop.
    bool iteration(int depth, int64_t elapsed, uint32_t best_move, int32_t score, int64_t best_nodes, int64_t nodes) {
        int64_t d = depth;
        stable = iterations > 0 && best_move == best ? stable + 1 : 0;
        best = best_move, iterations++;
        last = score, have_last = true;
        int64_t f = 1000;
        if (p.share_depth > 0 && d >= p.share_depth && nodes > 0) {
            int64_t share = best_nodes * 1000 / nodes;
            f = f * std::max<int64_t>(p.share_base * 10 - share, 0) * p.share_mult / 100 / 1000;
        }
        if (p.stable_depth > 0 && d >= p.stable_depth) f = f * std::max(p.stable_min, p.stable_max - p.stable_step * stable) / 1000;
        if (p.drop_depth > 0 && d >= p.drop_depth && have_ref && score < ref)
            f = f * (1000 + std::min(p.drop_max, p.drop_pm * int64_t(ref - score))) / 1000;
        last_factor = f;
        int64_t target = std::min(optimum * f / 1000, maximum);
        return elapsed >= target * p.start_pm / 1000;
    }
};

// Budget is alphabeta.Budget: what the search of one move may spend (zero: no limit); tm, when
// set, has planned the move and decides after each iteration (its ticks nodes with node_clock).
struct Budget {
    int64_t start = 0, hard = 0;
    int depth = 0;
    int64_t nodes = 0, soft_nodes = 0;
    TimeManager* tm = nullptr;
    bool node_clock = false;
    // soft is Budget.Soft: the optimum as a time (0 without a wall-clock plan).
    int64_t soft() const { return tm && !node_clock ? tm->optimum : 0; }
};

// budget is alphabeta.PlanMove.
inline Budget budget(TimeManager& tm, const Limits& lim, int fixed_depth, int64_t fixed_nodes, int own_moves_left,
                     int expected_moves) {
    Budget b;
    b.start = now_ns();
    b.depth = lim.depth;
    b.nodes = lim.nodes;
    b.soft_nodes = lim.soft_nodes;
    if (fixed_depth > 0 && (b.depth == 0 || fixed_depth < b.depth)) b.depth = fixed_depth;
    if (fixed_nodes > 0 && (b.nodes == 0 || fixed_nodes < b.nodes)) b.nodes = fixed_nodes;
    if (lim.node_clock > 0) {
        tm.start(lim.node_clock, 0, tm.p.nodes_per_ms, own_moves_left, expected_moves);
        b.tm = &tm, b.node_clock = true;
        if (b.nodes == 0 || tm.maximum < b.nodes) b.nodes = tm.maximum;
        if (tm.quick) b.depth = 1;
    } else if (lim.move_time > 0) {
        b.hard = lim.move_time - std::min(lim.move_time / 10, 5 * kMillisecond);
    } else if (lim.my_time > 0) {
        tm.start(lim.my_time, lim.my_inc, kMillisecond, own_moves_left, expected_moves);
        b.tm = &tm, b.hard = tm.maximum;
        if (tm.quick) b.depth = 1;
    } else if (b.depth == 0 && b.nodes == 0) {
        b.hard = kDefaultMoveTime;
    }
    return b;
}

// ---- text ----

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// fields is strings.Fields for ASCII white space.
inline std::vector<std::string> fields(const std::string& s) {
    std::vector<std::string> f;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) i++;
        size_t j = i;
        while (j < s.size() && !is_space(s[j])) j++;
        if (j > i) f.push_back(s.substr(i, j - i));
        i = j;
    }
    return f;
}

inline std::string ascii_upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return s;
}

// parse_int is strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, nothing else.
inline bool parse_int(const std::string& s, int64_t& v) {
    size_t i = 0;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    if (i == s.size()) return false;
    uint64_t x = 0;
    const uint64_t lim = neg ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
    for (; i < s.size(); i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        uint64_t d = uint64_t(s[i] - '0');
        if (x > (lim - d) / 10) return false;
        x = x * 10 + d;
    }
    v = neg ? int64_t(0 - x) : int64_t(x);
    return true;
}

inline void log_line(const char* fmt, const std::string& a = "", const std::string& b = "") {
    std::fprintf(stderr, fmt, a.c_str(), b.c_str());
}

// ---- the judge protocol (colony/judge) ----

constexpr size_t kMaxLineLen = 4096;  // judge.MaxLineLen

// LineReader is judge.LineReader: lines without their newline; longer ones are skipped whole.
struct LineReader {
    FILE* in;
    explicit LineReader(FILE* f) : in(f) {}
    // next reads a line into s; false at the end of the input.
    bool next(std::string& s) {
        for (;;) {
            s.clear();
            bool any = false, over = false;
            int c;
            while ((c = std::fgetc(in)) != EOF) {
                any = true;
                if (c == '\n') break;
                if (s.size() >= kMaxLineLen) over = true;
                else s.push_back(char(c));
            }
            if (!any) return false;
            if (over) {
                std::fprintf(stderr, "agent: skipping a line longer than %zu bytes\n", kMaxLineLen);
                if (c == EOF) return false;
                continue;
            }
            return true;
        }
    }
};

using Coords = std::array<int, 4>;  // games.Coords: x1 y1 x2 y2
constexpr Coords kPassCoords = {-1, -1, -1, -1};

inline std::string coords_str(const Coords& c) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%d %d %d %d", c[0], c[1], c[2], c[3]);
    return buf;
}

// JudgeSession is judge.Session: it tracks the position and answers the judge whatever odd
// input it gets. G is the game's adapter:
//
//   typename G::Pos, typename G::Move;
//   Pos start(); bool parse_board(const std::string&, Pos&); std::string str(const Pos&);
//   int to_move(const Pos&); int num_players(); bool terminal(const Pos&);
//   Pos with_to_move(const Pos&, int player); Pos playable(const Pos&);
//   Pos apply(const Pos&, Move); Pos pass(const Pos&);
//   bool judge_move(const Pos&, const Coords&, Move&); bool force(const Pos&, const Coords&, Pos&);
//   Coords coords(const Pos&, Move); Move choose(const Pos&, const Limits&); void new_game();
//   int64_t last_nodes() (the nodes the last choose spent: a node clock's count);
//   bool report(int& depth, int32_t& score) (the last choose's search, false when it had none)
template <class G>
struct JudgeSession {
    using Pos = typename G::Pos;
    using Move = typename G::Move;
    G& g;
    Pos pos;
    int me = -1;
    // node_clock (0: none) is a node clock of that many nodes a game (the agent's --node-clock):
    // each move is planned on the nodes left, nodes_left, in place of the judge's clock.
    int64_t node_clock = 0, nodes_left = 0;
    int n = 0;  // the agent's moves in this game

    explicit JudgeSession(G& game) : g(game), pos(game.start()) {}

    void println(const std::string& line) {
        std::fputs(line.c_str(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    }

    // run reads and answers until FINISH or the end of the input.
    int run() {
        LineReader in(stdin);
        std::string line;
        while (in.next(line)) {
            std::vector<std::string> f = fields(line);
            if (f.empty()) {
                std::fprintf(stderr, "agent: skipping a blank line\n");
                continue;
            }
            std::string w = ascii_upper(f[0]);
            if (w == "READY") ready(f);
            else if (w == "TURN") turn(f);
            else if (w == "OPP") opp(f);
            else if (w == "POSITION") position(line);
            else if (w == "FINISH") {
                if (f.size() > 1) log_line("agent: extra words after FINISH: \"%s\"\n", line);
                return 0;
            } else log_line("agent: skipping unknown line \"%s\"\n", line);
        }
        return 0;
    }

    void ready(const std::vector<std::string>& f) {
        pos = g.start();
        me = -1;
        if (f.size() == 2) {
            std::string s = ascii_upper(f[1]);
            if (s == "FIRST") me = 0;
            if (s == "SECOND") me = 1;
        }
        if (me < 0) std::fprintf(stderr, "agent: READY line names no side: inferring it from the next message\n");
        nodes_left = node_clock;
        n = 0;
        g.new_game();
        println("OK");
    }

    void position(const std::string& line) {
        std::string up = ascii_upper(line);
        size_t at = up.find("POSITION");
        std::string board = line.substr(at + 8);
        Pos p;
        if (!g.parse_board(board, p)) {
            log_line("agent: skipping POSITION line \"%s\"\n", line);
            return;
        }
        pos = p;
    }

    void set_to_move(int pl, const char* why) {
        if (g.to_move(pos) == pl) return;
        std::fprintf(stderr, "agent: %s but the tracked position %s has another player to move: switching\n", why,
                     g.str(pos).c_str());
        pos = g.with_to_move(pos, pl);
    }

    static bool parse_millis(const std::vector<std::string>& f, size_t i, int64_t& d) {
        int64_t n;
        if (i >= f.size() || !parse_int(f[i], n)) return false;
        const int64_t max_millis = 24LL * 3600 * 1000;
        d = std::max<int64_t>(0, std::min(n, max_millis)) * kMillisecond;
        return true;
    }

    void turn(const std::vector<std::string>& f) {
        int64_t my = 0, op = 0;
        bool ok1 = parse_millis(f, 1, my), ok2 = parse_millis(f, 2, op);
        if (!ok1 || !ok2 || f.size() != 3) {
            std::fprintf(stderr, "agent: malformed TURN line: answering with a 1 s budget\n");
            if (!ok1) my = kSecond;
        }
        Limits lim;
        lim.my_time = std::max(my, kMillisecond);
        lim.opp_time = op;
        if (me < 0) me = g.to_move(pos);
        set_to_move(me, "asked to move");
        Pos before = g.playable(pos);
        if (g.terminal(before)) {
            println("MOVE " + coords_str(kPassCoords));
            return;
        }
        if (node_clock > 0) lim.node_clock = std::max<int64_t>(nodes_left, 1);
        Move m = g.choose(before, lim);
        if (node_clock > 0) nodes_left -= g.last_nodes();
        Coords c = g.coords(before, m);
        pos = g.apply(before, m);
        n++;
        int depth = 0;
        int32_t score = 0;
        if (g.report(depth, score)) {
            // judge.Info's line on the log (the referee's records; the judge reads stdout only)
            std::fprintf(stderr, "info move %d score %d depth %d nodes %lld\n", n, int(score), depth,
                         (long long)g.last_nodes());
        }
        println("MOVE " + coords_str(c));
    }

    void opp(const std::vector<std::string>& f) {
        if (me < 0) me = (g.to_move(pos) + 1) % g.num_players();
        if (g.num_players() == 2) set_to_move(1 - me, "got the opponent's move");
        Coords c{};
        bool ok = f.size() >= 5;
        for (int i = 0; ok && i < 4; i++) {
            int64_t v;
            ok = parse_int(f[i + 1], v) && v >= -2147483647LL && v <= 2147483647LL;
            c[i] = int(v);
        }
        if (!ok) {
            std::fprintf(stderr, "agent: cannot read OPP line: keeping the position, passing the turn\n");
            pos = g.pass(pos);
            return;
        }
        int64_t took;
        if (f.size() != 6) std::fprintf(stderr, "agent: OPP line: want 4 coordinates and a time\n");
        else if (!parse_int(f[5], took)) std::fprintf(stderr, "agent: OPP line: bad time\n");
        Move m;
        if (g.judge_move(pos, c, m)) {
            pos = g.apply(pos, m);
            return;
        }
        Pos forced;
        if (g.force(pos, c, forced)) {
            std::fprintf(stderr, "agent: illegal OPP move %s in %s: applying it by force\n", coords_str(c).c_str(),
                         g.str(pos).c_str());
            pos = forced;
            return;
        }
        std::fprintf(stderr, "agent: illegal OPP move %s in %s: keeping the position, passing the turn\n",
                     coords_str(c).c_str(), g.str(pos).c_str());
        pos = g.pass(pos);
    }
};

// ---- the transposition table (colony/engine/tt) ----

// Bounds of a stored score (tt.Upper, tt.Lower, tt.Exact; 0: an empty slot).
constexpr uint8_t kUpper = 1, kLower = 2, kExact = 3;

// TTEntry is tt.Entry: four make a bucket (one 64-byte cache line for a 2-byte move).
template <class Move>
struct TTEntry {
    uint64_t key;
    Move move;
    int16_t score;
    int8_t depth;
    uint8_t bound, gen;
};

// Table is tt.Table for a game's moves, kNoMove its "no move": buckets of four entries, an
// age so that entries of older searches are replaced first. The entries come from calloc, so
// that the system hands out zeroed pages as they are first touched (as Go's make does): a new
// table costs no time up front. Without the memory there is no table (a search without one
// rather than no move).
template <class Move, Move kNoMove>
struct Table {
    using Entry = TTEntry<Move>;
    static constexpr int kBucket = 4;
    Entry* entries = nullptr;
    size_t size = 0;
    uint64_t mask = 0;
    uint8_t gen = 0;

    Table() = default;
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;
    ~Table() { std::free(entries); }

    bool allocated() const { return entries != nullptr; }
    // alloc is Alloc: the largest power-of-two number of buckets within mb megabytes.
    void alloc(int mb) {
        mb = std::max(mb, 1);
        uint64_t buckets = 1;
        while (buckets * 2 * kBucket * 16 <= uint64_t(mb) << 20) buckets *= 2;
        std::free(entries);
        size = buckets * kBucket;
        entries = static_cast<Entry*>(std::calloc(size, sizeof(Entry)));
        if (!entries) size = 0;
        mask = buckets - 1;
        gen = 0;
    }
    void clear() {
        std::memset(static_cast<void*>(entries), 0, size * sizeof(Entry));
        gen = 0;
    }
    void next_search() { gen++; }
    const Entry* probe(uint64_t key) const {
        const Entry* b = &entries[(key & mask) * kBucket];
        for (int i = 0; i < kBucket; i++)
            if (b[i].key == key && b[i].bound != 0) return &b[i];
        return nullptr;
    }
    // store is Store: the slot holding key, else the least valuable one (older searches first,
    // then the shallowest); a store without a move keeps the one stored for key.
    void store(uint64_t key, Move m, int32_t score, int depth, uint8_t bound) {
        Entry* b = &entries[(key & mask) * kBucket];
        int victim = 0, worst = 1 << 30;
        for (int i = 0; i < kBucket; i++) {
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

// ---- the alpha-beta search (colony/engine/alphabeta) ----
//
// One searcher for every game, node for node the Go one (the parity tests compare node
// counts), over two template parameters:
//
// C, the search's configuration: alphabeta.Config as a struct of static constexpr members,
// written by the exporter from the Go engine's (export/cpp's searchConfig), defaults applied:
//   MAX_PLY, MAX_DEPTH, HIST_SIZE, WIN_SCORE, PLY_STEP, WIN_BOUND,
//   KILLER_BONUS[2], KILLER_HISTORY, ROOT_HISTORY, ROOT_TIE_MOVE, STAGED,
//   HAVE_LMR, REDUCTIONS[64][64], REDUCE_PV_LESS, REDUCE_SIDES, REDUCE_BELOW,
//   REDUCE_KILLERS, REDUCE_ROOT, LMR_HIST_DIV                        late-move reductions
//   RFP_DEPTH, RFP_MARGIN                                            reverse futility
//   QUIET_BELOW, QUIET_AFTER                                         quiet-move pruning
//   FP_DEPTH, FP_MOVES, FP_BASE, FP_MULT                             futility pruning
//   SE_DEPTH, SE_MARGIN                                              singular extensions
//   TT_CUT_PV, IIR_DEPTH                                             table cuts on the PV, IIR
//   HIST_MULT, HIST_MAX, HIST_DIV                                    history
//   ASPIRATION, ASP_DEPTH, ASP_GROW, ASP_FAIL_HIGH_SHALLOWER, ASP_FAIL_LOW_MID   aspiration
//   TIME                                                             the time manager's rules (TimeParams)
//
// G, the game's hooks: alphabeta.Game and what the search reads of a position.
//
//   typename G::Pos, typename G::Move (16 bits); static constexpr Move kNoMove, kPass;
//   static constexpr int kMaxMoves;
//   uint64_t hash(const Pos&); int to_move(const Pos&);
//   bool enter(const Pos& p, int ply, int& depth, int32_t& alpha, int32_t& beta,
//              int32_t& score);                        Enter: true when done with score
//   uint64_t key(const Pos&);                          Key
//   int32_t leaf(const Pos&, int ply);                 Leaf
//   int moves(const Pos&, Move* out, Order<Move, C>& o, int& side);
//                                                      Moves: the moves' number, side set
//   bool stuck(const Pos&, int ply, int32_t& score);   Stuck
//   void root(const Pos&);                             Root
//   Pos play(const Pos&, Move, int ply);               Play
//   int32_t static_value(const Pos&, int ply);         Static (read only when C::RFP_DEPTH > 0
//                                                      or C::FP_DEPTH > 0)
//   bool legal(const Pos&, Move);                      Legal (read only when C::STAGED)
//   static constexpr bool kCorrects;                   the hooks are a Corrector; then also
//   void after(const Pos&, int ply, int depth, int32_t best, uint8_t bound);   After
//   void forget();                                     Forget
//
// The Go engine's run-time experiments (alphabeta.Options IIR and Singular: IIR and singular
// extensions at the experiment's fixed depths) and the exact-depth table
// of its tests are off in every exported engine; the configuration's own IIR and singular
// extensions (C::IIR_DEPTH, C::SE_DEPTH) are ported.

// pick_next brings the i-th move of the keyed list ks[0..n) into place, in the order of the Go
// search: the smallest remaining key by selection for the first picks moves, then the rest
// sorted at once.
inline void pick_next(int64_t* ks, int i, int n, int picks) {
    if (i < picks) {
        int bi = i;
        for (int j = i + 1; j < n; j++)
            if (ks[j] < ks[bi]) bi = j;
        std::swap(ks[i], ks[bi]);
    } else if (i == picks) {
        std::sort(ks + i, ks + n);
    }
}

// Order is alphabeta.Order: the sort keys of a node's moves from their static ordering values,
// the table move first, then by the static value plus the history score (/ HIST_DIV) and the
// killers' bonus. A key packs the negated total above the move, so that sorting keys ascending
// sorts the moves.
template <class Move, class C>
struct Order {
    int64_t* keys = nullptr;  // the node's keys, in the order of its moves
    Move tt_move{}, k1{}, k2{};
    const int32_t* hist[2] = {nullptr, nullptr};
    const int32_t* cur = nullptr;

    // side selects the history of the side to move.
    void side(int s) { cur = hist[s & 1]; }
    // key is the sort key of m, given its static ordering value v.
    int64_t key(Move m, int32_t v) const {
        int32_t h = cur[m & (C::HIST_SIZE - 1)] / C::HIST_DIV;
        int32_t k = v + h;
        if (m == tt_move) k = 1 << 24;
        else if (m == k1) k = v + C::KILLER_BONUS[0] + (C::KILLER_HISTORY ? h : 0);
        else if (m == k2) k = v + C::KILLER_BONUS[1] + (C::KILLER_HISTORY ? h : 0);
        return int64_t(uint64_t(int64_t(-k)) << 16) | int64_t(m);
    }
};

// SearchOptions are the alphabeta.Options the searcher reads: the table's size, the seed of
// the root tie-breaks (0: none), no late-move reductions, no pruning (reverse futility,
// late-move, quiet-move and futility pruning).
struct SearchOptions {
    int hash_mb = 0;
    uint64_t seed = 0;
    bool no_lmr = false, no_prune = false;
};

template <class G, class C>
struct AlphaBeta;

template <class Move>
struct RootMove {
    Move m;
    int64_t order;
    int64_t nodes;  // spent below this move in the search so far
};

// Searcher is alphabeta's searcher: everything one search touches, its buffers per ply sized
// at compile time (about a megabyte for Bacteria War: AlphaBeta allocates it).
template <class G, class C>
struct Searcher {
    using Pos = typename G::Pos;
    using Move = typename G::Move;
    static constexpr Move kNoMove = G::kNoMove, kPass = G::kPass;
    static constexpr int32_t kInfinity = 32000;
    static constexpr int64_t kCheckMask = 1023;  // check the clock every 1024 nodes

    G* g = nullptr;
    Table<Move, kNoMove>* tt = nullptr;
    bool lmr = true, prune = true;

    int64_t nodes = 0, node_limit = 0, start = 0, hard = 0;
    bool stop = false;

    std::vector<RootMove<Move>> root;
    Move best_move = kNoMove;
    int32_t best_score = 0;

    Move killers[C::MAX_PLY][2];
    Move excluded[C::MAX_PLY];  // per ply: the move a singular-extension test leaves out
    int32_t history[2][C::HIST_SIZE];
    int32_t zero_hist[2][C::HIST_SIZE];  // no history: the root's order without ROOT_HISTORY
    Order<Move, C> order;
    Move moves[C::MAX_PLY][G::kMaxMoves];
    int64_t keys[C::MAX_PLY][G::kMaxMoves];

    Searcher() {
        root.reserve(G::kMaxMoves);
        std::memset(history, 0, sizeof history);
        std::memset(zero_hist, 0, sizeof zero_hist);
        std::fill(excluded, excluded + C::MAX_PLY, kNoMove);
        clear_killers();
    }

    // clear_killers empties the killer slots (the zero move: a killer only raises a move's
    // place in the order, so a legal zero move there is harmless).
    void clear_killers() { std::memset(killers, 0, sizeof killers); }

    void reset_stats() {
        clear_killers();
        std::memset(history, 0, sizeof history);
    }

    static int hist_index(Move m) { return m & (C::HIST_SIZE - 1); }

    void update_history(int side, Move m, int32_t bonus) {
        int32_t& h = history[side][hist_index(m)];
        int32_t a = std::max(bonus, -bonus);
        h += bonus - h * a / 16384;
    }

    // hist_bonus is the history bonus of a cut at depth (and the malus of the moves tried
    // first): min(HIST_MULT*depth, HIST_MAX), or depth*depth without HIST_MULT.
    static int32_t hist_bonus(int depth) {
        if constexpr (C::HIST_MULT == 0) return int32_t(depth * depth);
        else return std::min(C::HIST_MULT * int32_t(depth), C::HIST_MAX);
    }

    static int32_t to_tt(int32_t s, int ply) {
        if (s >= C::WIN_BOUND) return s + C::PLY_STEP * ply;
        if (s <= -C::WIN_BOUND) return s - C::PLY_STEP * ply;
        return s;
    }
    static int32_t from_tt(int32_t s, int ply) {
        if (s >= C::WIN_BOUND) return s - C::PLY_STEP * ply;
        if (s <= -C::WIN_BOUND) return s + C::PLY_STEP * ply;
        return s;
    }

    // check_stop is called every kCheckMask+1 nodes.
    void check_stop() {
        if (hard > 0 && now_ns() - start >= hard) stop = true;
    }

    // set_killer makes m the first killer at ply (k1 the one before it).
    void set_killer(int ply, Move m, Move k1) {
        if (m != k1) {
            killers[ply][1] = k1;
            killers[ply][0] = m;
        }
    }

    // store writes a search result to the table, if there is one (not that of a search
    // without a move: a singular-extension test).
    void store(uint64_t k, Move m, int32_t v, int depth, int ply, uint8_t bound) {
        if (tt && excluded[ply] == kNoMove) tt->store(k, m, to_tt(v, ply), depth, bound);
    }

    // reduction is the late-move reduction of the idx-th move m searched at a node of depth
    // (by side): the table's, one less on the principal variation with REDUCE_PV_LESS, less by
    // its history / LMR_HIST_DIV (rounded half away from zero), within [0, depth-2].
    int reduction(int depth, int idx, bool pv, int side, Move m) const {
        int r = C::REDUCTIONS[std::min(depth, 63)][std::min(idx, 63)];
        if (pv && C::REDUCE_PV_LESS) r--;
        if constexpr (C::LMR_HIST_DIV != 0) {
            int32_t h = history[side & 1][hist_index(m)], d = C::LMR_HIST_DIV;
            if (h >= 0) r -= int((2 * h + d) / (2 * d));
            else r += int((-2 * h + d) / (2 * d));
        }
        return std::min(std::max(r, 0), depth - 2);
    }

    // search is fail-soft negamax PVS; ply is the distance from the root.
    int32_t search(const Pos& p, int depth, int32_t alpha, int32_t beta, int ply, bool pv) {
        nodes++;
        if ((nodes & kCheckMask) == 0) check_stop();
        if (node_limit > 0 && nodes >= node_limit) stop = true;
        if (stop) return 0;
        int32_t score;
        if (g->enter(p, ply, depth, alpha, beta, score)) return score;
        if (depth <= 0 || ply >= C::MAX_PLY - 1) return g->leaf(p, ply);

        uint64_t k = g->key(p);
        Move tt_move = kNoMove;
        const Move excl = excluded[ply];  // a singular-extension test's excluded move (else kNoMove)
        int tt_depth = 0;
        int32_t tt_score = 0;
        uint8_t tt_bound = 0;
        if (tt && excl == kNoMove) {
            if (const auto* en = tt->probe(k)) {
                tt_move = en->move, tt_depth = en->depth, tt_score = en->score, tt_bound = en->bound;
                if ((!pv || (C::TT_CUT_PV && ply > 0)) && en->depth >= depth) {
                    int32_t v = from_tt(en->score, ply);
                    if (en->bound == kExact || (en->bound == kLower && v >= beta) ||
                        (en->bound == kUpper && v <= alpha))
                        return v;
                }
            }
        }

        // Internal iterative reduction: without a table move the ordering is poor and the node
        // likely new; it is searched a ply shallower.
        if constexpr (C::IIR_DEPTH > 0) {
            if (depth >= C::IIR_DEPTH && tt_move == kNoMove) depth--;
        }

        // Reverse futility: near the leaves, a node that stands far enough above beta by its
        // static value alone is cut without a search.
        int32_t st = 0;
        bool have_static = false;
        if constexpr (C::RFP_DEPTH > 0) {
            bool in_bounds = beta > -C::WIN_BOUND && beta < C::WIN_BOUND;
            if (prune && !pv && depth <= C::RFP_DEPTH && in_bounds) {
                st = g->static_value(p, ply), have_static = true;
                if (st - C::RFP_MARGIN * int32_t(depth) >= beta) return st;
            }
        }

        // Singular extension (with STAGED only): when the table says the table move holds beta
        // at nearly this depth, the node is searched without it, at half depth, against a bound
        // below the table's score; if nothing else reaches it the table move is singular and is
        // searched a ply deeper; if the bound is above beta, two moves beat beta and the node is
        // cut.
        int ext = 0;
        if constexpr (C::STAGED && C::SE_DEPTH > 0) {
            if (!pv && ply > 0 && depth >= C::SE_DEPTH && tt_move != kNoMove && (tt_bound & kLower) != 0 &&
                tt_depth >= depth - 3 && g->legal(p, tt_move)) {
                int32_t ttv = from_tt(tt_score, ply);
                if (ttv > -C::WIN_BOUND && ttv < C::WIN_BOUND) {
                    int32_t s_beta = ttv - C::SE_MARGIN * int32_t(depth);
                    excluded[ply] = tt_move;
                    int32_t v = search(p, (depth - 1) / 2, s_beta - 1, s_beta, ply, false);
                    excluded[ply] = kNoMove;
                    if (stop) return 0;
                    if (v < s_beta) ext = 1;
                    else if (s_beta >= beta) return s_beta;
                }
            }
        }

        int32_t orig_alpha = alpha, best = -kInfinity;
        Move best_m = kNoMove;
        Move k1 = killers[ply][0], k2 = killers[ply][1];

        // Staged: the table move, then the first killer, before any move is generated.
        Move staged[2] = {kNoMove, kNoMove};
        int searched = 0;
        if constexpr (C::STAGED) {
            staged[0] = tt_move;
            if (k1 != tt_move) staged[1] = k1;
            for (int j = 0; j < 2; j++) {
                Move m = staged[j];
                if (m == excl || !g->legal(p, m)) {
                    staged[j] = kNoMove;
                    continue;
                }
                int d = depth;
                if (m == tt_move) d += ext;
                int32_t v = child(p, m, d, 0, alpha, beta, ply, searched, pv);
                if (stop) return 0;
                searched++;
                if (v > best) {
                    best = v, best_m = m;
                    if (v > alpha) {
                        alpha = v;
                        if (v >= beta) {
                            update_history(g->to_move(p), m, hist_bonus(depth));
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
        order.keys = ks;
        order.hist[0] = history[0], order.hist[1] = history[1];
        order.tt_move = tt_move, order.k1 = k1, order.k2 = k2;
        int side = 0;
        int n = g->moves(p, mv, order, side);
        if (mv[0] == kPass) {
            if (g->stuck(p, ply, score)) return score;
            return -search(g->play(p, kPass, ply), depth - 1, -beta, -alpha, ply + 1, pv);
        }
        if (searched > 0 || excl != kNoMove) {  // the staged moves are done, the excluded one not searched: drop them
            int w = 0;
            for (int i = 0; i < n; i++)
                if (mv[i] != staged[0] && mv[i] != staged[1] && mv[i] != excl) ks[w++] = ks[i];
            n = w;
        }

        // The first moves are picked one at a time (a cut usually comes early), the rest sorted
        // once.
        bool reduce = lmr && depth >= 3 && ((C::REDUCE_SIDES >> side) & 1) != 0;
        bool quiet = prune && C::QUIET_BELOW != 0 && ply > 0;
        bool fp = prune && ply > 0 && depth <= C::FP_DEPTH && alpha < C::WIN_BOUND;
        constexpr int picks = 3;
        for (int i = 0; i < n; i++) {
            pick_next(ks, i, n, picks);
            Move m = Move(ks[i] & 0xFFFF);
            int idx = i + searched;  // the move's rank at this node
            if (best > -C::WIN_BOUND) {
                // The moves are sorted: once one is quiet, so are all the rest.
                if (quiet && idx >= C::QUIET_AFTER && -(ks[i] >> 16) < int64_t(C::QUIET_BELOW)) break;
                if constexpr (C::FP_DEPTH > 0) {
                    if (fp && idx >= C::FP_MOVES) {
                        if (!have_static) st = g->static_value(p, ply), have_static = true;
                        if (st + C::FP_BASE + C::FP_MULT * int32_t(depth) <= alpha) break;
                    }
                }
            }
            int r = 0;
            if (idx > 0 && reduce && (C::REDUCE_KILLERS || (m != k1 && m != k2)) &&
                -(ks[i] >> 16) < int64_t(C::REDUCE_BELOW))
                r = reduction(depth, idx, pv, side, m);
            int32_t v = child(p, m, depth, r, alpha, beta, ply, idx, pv);
            if (stop) return 0;
            if (v > best) {
                best = v, best_m = m;
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta) {
                        int32_t bonus = hist_bonus(depth);
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
        if constexpr (G::kCorrects) {
            if (excl == kNoMove && best > -C::WIN_BOUND && best < C::WIN_BOUND) g->after(p, ply, depth, best, bound);
        }
        return best;
    }

    // child searches the child of p (at ply) by m, the idx-th move searched at p: the first with
    // the full window, the others with a null window first (r plies shallower, then at full
    // depth if it beats alpha), then, on the principal variation, with the full window again if
    // the score falls inside it.
    int32_t child(const Pos& p, Move m, int depth, int r, int32_t alpha, int32_t beta, int ply, int idx, bool pv) {
        Pos c = g->play(p, m, ply);
        if (idx == 0) return -search(c, depth - 1, -beta, -alpha, ply + 1, pv);
        int32_t v = -search(c, depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
        if (v > alpha && r > 0) v = -search(c, depth - 1, -alpha - 1, -alpha, ply + 1, false);
        if (pv && v > alpha && v < beta) v = -search(c, depth - 1, -beta, -alpha, ply + 1, true);
        return v;
    }

    // search_root searches the root moves in their current order (the late ones reduced with
    // REDUCE_ROOT), counting the nodes below each; the best one found with a score above alpha
    // moves to the front and becomes best_move.
    int32_t search_root(const Pos& p, int depth, int32_t alpha, int32_t beta) {
        nodes++;
        int32_t best = -kInfinity;
        int side = g->to_move(p);
        for (size_t i = 0; i < root.size(); i++) {
            Move m = root[i].m;
            int r = 0;
            if (C::REDUCE_ROOT && lmr && depth >= 3 && i > 0 && ((C::REDUCE_SIDES >> side) & 1) != 0)
                r = reduction(depth, int(i), true, side, m);
            int64_t n0 = nodes;
            int32_t v = child(p, m, depth, r, alpha, beta, 0, int(i), true);
            root[i].nodes += nodes - n0;
            if (stop) return best;
            best = std::max(best, v);
            if (v > alpha) {
                alpha = v;
                RootMove<Move> rm = root[i];
                std::copy_backward(root.begin(), root.begin() + i, root.begin() + i + 1);
                root[0] = rm;
                best_move = m, best_score = v;
                if (v >= beta) break;
            }
        }
        return best;
    }

    // begin readies the searcher for a search of e's: its hooks, table and options, no nodes
    // counted yet. A zero hard time and node limit mean no limit.
    void begin(AlphaBeta<G, C>& e, int64_t start_ns, int64_t hard_ns, int64_t node_lim) {
        g = &e.game;
        tt = e.tt.allocated() ? &e.tt : nullptr;
        lmr = !e.opts.no_lmr && C::HAVE_LMR;
        prune = !e.opts.no_prune && (C::RFP_DEPTH > 0 || C::QUIET_BELOW != 0 || C::FP_DEPTH > 0);
        nodes = 0, node_limit = node_lim;
        start = start_ns, hard = hard_ns;
        stop = false;
    }

    // root_nodes is searcher.rootNodes: the nodes spent below the root move m in this search.
    int64_t root_nodes(Move m) const {
        for (const RootMove<Move>& r : root)
            if (r.m == m) return r.nodes;
        return 0;
    }

    // deepen is alphabeta.Deepen over search_root: iterative deepening from depth 1 to max_d,
    // with the full window below ASP_DEPTH, at a proven score or without ASPIRATION, else in a
    // window of ±ASPIRATION around the last score that widens by ASP_GROW/16 on each fail (a
    // fail high a ply shallower with ASP_FAIL_HIGH_SHALLOWER; a fail low with beta moved to the
    // window's middle with ASP_FAIL_LOW_MID). done(d, v) is called after each finished
    // iteration and ends it by returning true, and so does a proven result within the
    // searched depth; an aborted search ends it without done.
    template <class Done>
    void deepen(const Pos& pos, int max_d, Done done) {
        int32_t prev = 0;
        for (int d = 1; d <= max_d; d++) {
            int32_t v;
            if (C::ASPIRATION <= 0 || d < C::ASP_DEPTH || prev >= C::WIN_BOUND || prev <= -C::WIN_BOUND) {
                v = search_root(pos, d, -kInfinity, kInfinity);
            } else {
                int32_t delta = C::ASPIRATION, a = prev - delta, b = prev + delta;
                int sd = d;
                for (;;) {
                    v = search_root(pos, sd, a, b);
                    if (stop) break;
                    if (v <= a) {
                        if (C::ASP_FAIL_LOW_MID) b = (a + b) / 2;
                        a = std::max(a - delta, -kInfinity);
                        sd = d;
                    } else if (v >= b) {
                        b = std::min(b + delta, kInfinity);
                        if (C::ASP_FAIL_HIGH_SHALLOWER && sd > 1) sd--;
                    } else {
                        break;
                    }
                    delta = delta * C::ASP_GROW / 16;
                }
            }
            if (stop) return;
            prev = v;
            if (done(d, v)) return;
            // A proven result within the searched depth cannot change.
            if ((v >= C::WIN_BOUND || v <= -C::WIN_BOUND) && std::max(v, -v) >= C::WIN_SCORE - C::PLY_STEP * d) return;
        }
    }

    // run is the iterative-deepening driver (searcher.run with Deepen) within the budget b: the
    // best move found, kNoMove when there is none. The root moves in exclude are not searched
    // unless they are all the moves there are.
    Move run(AlphaBeta<G, C>& e, const Pos& pos, const Budget& b, const std::vector<Move>& exclude) {
        begin(e, b.start, b.hard, b.nodes);
        if (tt) tt->next_search();
        e.last_depth = 0, e.last_score = 0, e.last_nodes = 0;

        const auto& hist = C::ROOT_HISTORY ? history : zero_hist;
        order.keys = keys[0];
        order.hist[0] = hist[0], order.hist[1] = hist[1];
        order.tt_move = order.k1 = order.k2 = kNoMove;
        int side = 0;
        int n = g->moves(pos, moves[0], order, side);
        if (n == 0) return kNoMove;
        if (n == 1) return moves[0][0];
        bool excluding = !exclude.empty() && int(exclude.size()) < n;
        g->root(pos);
        // Initial root order: the table move, then the static order; the seed breaks ties.
        Move tt_move = kNoMove;
        if (tt)
            if (const auto* en = tt->probe(g->key(pos))) tt_move = en->move;
        root.clear();
        for (int i = 0; i < n; i++) {
            Move m = moves[0][i];
            if (excluding && std::find(exclude.begin(), exclude.end(), m) != exclude.end()) continue;
            int64_t k = -(keys[0][i] >> 16);
            if (m == tt_move) k = int64_t(1) << 40;
            k = int64_t(uint64_t(k) << 16);
            if (e.opts.seed != 0) k += int64_t(sm_mix(e.opts.seed ^ uint64_t(m) ^ g->hash(pos)) & 0xFFFF);
            root.push_back(RootMove<Move>{m, k, 0});
        }
        std::stable_sort(root.begin(), root.end(), [](const RootMove<Move>& a, const RootMove<Move>& b) {
            if (a.order != b.order) return a.order > b.order;
            return C::ROOT_TIE_MOVE && a.m < b.m;
        });
        best_move = root[0].m, best_score = 0;
        clear_killers();

        int max_d = C::MAX_DEPTH;
        if (b.depth > 0) max_d = std::min(b.depth, max_d);
        deepen(pos, max_d, [&](int d, int32_t) {
            e.last_depth = d, e.last_score = best_score;
            if (b.tm) {
                int64_t elapsed = b.node_clock ? nodes : now_ns() - b.start;
                if (b.tm->iteration(d, elapsed, uint32_t(best_move), best_score, root_nodes(best_move), nodes)) return true;
            }
            return b.soft_nodes > 0 && nodes >= b.soft_nodes;
        });
        e.last_nodes = nodes;
        return best_move;
    }
};

// AlphaBeta is alphabeta.Engine, the part of an alpha-beta engine every game shares: the
// options, the game's hooks, the table, the searcher (allocated on the first search) and the
// last search's statistics. A game's engine holds one and adds what it does around the search.
template <class G, class C>
struct AlphaBeta {
    using Pos = typename G::Pos;
    using Move = typename G::Move;

    SearchOptions opts;
    G game;
    TimeManager tm{C::TIME};  // Engine.TM: the configuration's time rules
    Table<Move, G::kNoMove> tt;
    Searcher<G, C>* s = nullptr;
    int last_depth = 0;
    int32_t last_score = 0;
    int64_t last_nodes = 0;

    explicit AlphaBeta(const SearchOptions& o) : opts(o) {}
    AlphaBeta(const AlphaBeta&) = delete;
    AlphaBeta& operator=(const AlphaBeta&) = delete;
    ~AlphaBeta() { delete s; }

    // new_game clears the table, the move-ordering statistics and what the hooks learnt.
    void new_game() {
        if (tt.allocated()) tt.clear();
        if (s) s->reset_stats();
        if constexpr (G::kCorrects) game.forget();
        tm.reset();
    }

    // set_stats replaces what the statistics say (for a move found without the search).
    void set_stats(int depth, int32_t score, int64_t nodes) {
        last_depth = depth, last_score = score, last_nodes = nodes;
    }

    // searcher returns the searcher, allocating it and the table on first use.
    Searcher<G, C>& searcher() {
        if (!s) s = new Searcher<G, C>();
        if (!tt.allocated() && opts.hash_mb > 0) tt.alloc(opts.hash_mb);
        return *s;
    }

    // budget is Engine.Budget: a move planned within lim by the engine's time manager.
    Budget budget(const Limits& lim, int own_moves_left, int expected_moves) {
        return colony::budget(tm, lim, 0, 0, own_moves_left, expected_moves);
    }

    // search is Engine.Search: pos searched by iterative deepening within the budget b, the
    // best move found: the only one without a search, kNoMove when there is none.
    Move search(const Pos& pos, const Budget& b, const std::vector<Move>& exclude) {
        return searcher().run(*this, pos, b, exclude);
    }
};

}  // namespace colony
