// ---- common.cpp: Colony's game-agnostic C++ runtime (export/cpp/common.cpp) ----
//
// The judge protocol (colony/judge: READY/OK, TURN, OPP, POSITION, FINISH), the clock helpers
// of the alpha-beta engines (colony/engine.Spendable, colony/engine/alphabeta.Budget and
// ClockSplit), splitmix64 (colony/internal/splitmix) and small text helpers. Standard library
// only. A game's template includes this file and gives the session its hooks (JudgeSession).

#include <algorithm>
#include <array>
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
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// CPU time of the process in seconds (single-threaded programs: the thread's).
inline double cpu_seconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

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
};

constexpr int64_t kMinMoveCost = 2 * kMillisecond;  // engine.MinMoveCost
constexpr int64_t kDefaultMoveTime = kSecond;       // alphabeta.DefaultMoveTime

// spendable is engine.Spendable: myTime less the reserve of the moves that may still come.
inline bool spendable(int64_t my_time, int own_moves_left, int64_t& left) {
    left = my_time - int64_t(std::max(own_moves_left, 0)) * kMinMoveCost;
    return left >= 2 * kMinMoveCost;
}

// clock_split is alphabeta.ClockSplit.
inline void clock_split(int64_t my_time, int64_t inc, int expected_moves, int reserve_div, int64_t& soft,
                        int64_t& hard) {
    int64_t reserve = std::min(my_time / int64_t(std::max(reserve_div, 1)), 300 * kMillisecond);
    int64_t avail = my_time - reserve;
    int64_t moves_left = std::max(expected_moves, 1);
    soft = avail / moves_left + inc * 3 / 4;
    hard = std::min(soft * 3, avail / 3 + inc * 3 / 4);
    soft = std::min(soft, hard);
    if (hard < kMillisecond) {
        hard = kMillisecond;
        soft = hard;
    }
}

// Budget is alphabeta.Budget's result: soft and hard times (0: none), depth and nodes (0: none).
struct Budget {
    int64_t soft = 0, hard = 0;
    int depth = 0;
    int64_t nodes = 0;
};

// budget is alphabeta.Budget.
inline Budget budget(const Limits& lim, int fixed_depth, int64_t fixed_nodes, int own_moves_left,
                     int expected_moves, int reserve_div) {
    Budget b;
    b.depth = lim.depth;
    b.nodes = lim.nodes;
    if (fixed_depth > 0 && (b.depth == 0 || fixed_depth < b.depth)) b.depth = fixed_depth;
    if (fixed_nodes > 0 && (b.nodes == 0 || fixed_nodes < b.nodes)) b.nodes = fixed_nodes;
    if (lim.move_time > 0) {
        b.hard = lim.move_time - std::min(lim.move_time / 10, 5 * kMillisecond);
    } else if (lim.my_time > 0) {
        int64_t left;
        if (!spendable(lim.my_time, own_moves_left, left)) {
            b.soft = b.hard = kMinMoveCost / 2;
            b.depth = 1;
            return b;
        }
        clock_split(left, lim.my_inc, expected_moves, reserve_div, b.soft, b.hard);
    } else if (b.depth == 0 && b.nodes == 0) {
        b.hard = b.soft = kDefaultMoveTime;
    }
    return b;
}

// ---- text ----

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
template <class G>
struct JudgeSession {
    using Pos = typename G::Pos;
    using Move = typename G::Move;
    G& g;
    Pos pos;
    int me = -1;

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
        Move m = g.choose(before, lim);
        Coords c = g.coords(before, m);
        pos = g.apply(before, m);
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

// search_root is the root of an alpha-beta search (searcher.searchRoot), shared by the games'
// searchers S: the root moves s.root in order, each searched by s.child; a move that raises
// alpha goes to the front of s.root and best_at(move, score) records it.
template <class S, class P, class Best>
int32_t search_root(S& s, const P& p, int depth, int32_t alpha, int32_t beta, int32_t infinity, Best best_at) {
    s.nodes++;
    int32_t best = -infinity;
    for (size_t i = 0; i < s.root.size(); i++) {
        auto m = s.root[i].m;
        int32_t v = s.child(p, m, depth, 0, alpha, beta, 0, int(i), true);
        if (s.stop) return best;
        best = std::max(best, v);
        if (v > alpha) {
            alpha = v;
            auto rm = s.root[i];
            std::copy_backward(s.root.begin(), s.root.begin() + i, s.root.begin() + i + 1);
            s.root[0] = rm;
            best_at(m, v);
            if (v >= beta) break;
        }
    }
    return best;
}

}  // namespace colony
