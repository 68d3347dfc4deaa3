package chunk

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lore-dev/lore/internal/lang"
)

// want describes the chunk that defines symbol (within breadcrumb crumb).
type want struct {
	symbol    string
	crumb     string
	kind      string
	signature string
	doc       string // a substring of the doc comment; "" means it must be empty
}

// fixture is a realistic source file under testdata with what its chunks
// must say.
type fixture struct {
	file    string
	symbols []string // must appear in this order among all chunks' symbols
	wants   []want
}

var fixtures = []fixture{
	{
		file:    "router.go",
		symbols: []string{"MaxSegments", "ErrEmptyPattern", "ErrDuplicate", "Route", "Matcher", "Mux", "New", "Handle", "ServeHTTP", "lookup", "split", "priority", "match"},
		wants: []want{
			{symbol: "ErrEmptyPattern", kind: KindVariable, signature: "var (ErrEmptyPattern, ErrDuplicate)", doc: "Errors returned by Handle."},
			{symbol: "Route", kind: KindStruct, signature: "type Route struct", doc: "Route is one registered pattern"},
			{symbol: "Matcher", kind: KindInterface, signature: "type Matcher interface", doc: "reports whether a route accepts"},
			{symbol: "New", kind: KindFunction, signature: "func New() *Mux", doc: "New returns an empty Mux"},
			{symbol: "Handle", crumb: "Mux", kind: KindMethod, signature: "func (m *Mux) Handle(pattern string, handler http.Handler) error", doc: "Handle registers handler for pattern. Patterns are slash-separated;\na segment"},
			{symbol: "ServeHTTP", crumb: "Mux", kind: KindMethod, signature: "func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request)", doc: "ServeHTTP implements http.Handler."},
			{symbol: "lookup", crumb: "Mux", kind: KindMethod, signature: "func (m *Mux) lookup(path string) (*Route, map[string]string)"},
			{symbol: "match", kind: KindFunction, signature: "func match(pattern, path []string) (map[string]string, bool)", doc: "It is deliberately long-winded"},
		},
	},
	{
		file:    "inventory.py",
		symbols: []string{"logger", "DEFAULT_CAPACITY", "SKU_PREFIX", "Item", "InventoryError", "Warehouse", "__init__", "add", "remove", "total", "skus", "find", "save", "load", "restock", "report", "__len__", "__contains__", "parse_args", "main", "checksum"},
		wants: []want{
			{symbol: "Item", kind: KindClass, signature: "class Item", doc: "A stocked item."},
			{symbol: "InventoryError", kind: KindClass, signature: "class InventoryError(Exception)"},
			{symbol: "Warehouse", kind: KindClass, signature: "class Warehouse", doc: "A warehouse holds items up to a capacity.\n\nItems are keyed by SKU."},
			{symbol: "add", crumb: "Warehouse", kind: KindMethod, signature: "def add(self, item: Item) -> None", doc: "Add an item, merging quantities when the SKU exists."},
			{symbol: "load", crumb: "Warehouse", kind: KindMethod, signature: `def load(cls, path: Path) -> "Warehouse"`, doc: "Read an inventory written by save."},
			{symbol: "restock", crumb: "Warehouse", kind: KindMethod, signature: "def restock(self, threshold: int, amount: int) -> list[str]", doc: "Top up every item below threshold by amount.\n\nReturns the SKUs"},
			{symbol: "parse_args", kind: KindFunction, signature: "def parse_args(argv: list[str] | None = None) -> argparse.Namespace", doc: "Parse command-line arguments."},
			{symbol: "main", kind: KindFunction, signature: "def main(argv: list[str] | None = None) -> int"},
			// Defined under "except ImportError:" (flattenBody).
			{symbol: "checksum", kind: KindFunction, signature: "def checksum(skus: list[str]) -> int", doc: "A checksum of the SKUs"},
		},
	},
	{
		file:    "queue.js",
		symbols: []string{"DEFAULT_CONCURRENCY", "jobCounter", "sleep", "JobQueue", "constructor", "push", "size", "#drain", "#run", "clear", "idle", "dump", "fromFile", "pause"},
		wants: []want{
			{symbol: "sleep", kind: KindFunction, signature: "function sleep(ms)", doc: "Sleeps for ms milliseconds.\n@param {number} ms"},
			{symbol: "JobQueue", kind: KindClass, signature: "class JobQueue", doc: "A job queue that runs at most"},
			{symbol: "push", crumb: "JobQueue", kind: KindMethod, signature: "push(fn, { name = 'job' } = {})", doc: "Adds a job. Returns its id."},
			{symbol: "#drain", crumb: "JobQueue", kind: KindMethod, signature: "#drain()", doc: "Runs pending jobs while there is capacity."},
			{symbol: "#run", crumb: "JobQueue", kind: KindMethod, signature: "async #run(job)"},
			{symbol: "fromFile", kind: KindFunction, signature: "const fromFile = async (file) =>", doc: "fromFile builds a queue"},
			{symbol: "pause", crumb: "JobQueue", kind: KindMethod, signature: "JobQueue.prototype.pause = function pause()", doc: "Stops starting new jobs"},
		},
	},
	{
		file:    "cart.ts",
		symbols: []string{"MAX_LINES", "CartLine", "Currency", "DiscountKind", "Cart", "constructor", "add", "remove", "applyDiscount", "size", "total", "clear", "lineFor", "toJSON", "formatMoney", "parseMoney", "CartEvents"},
		wants: []want{
			{symbol: "CartLine", kind: KindInterface, signature: "export interface CartLine", doc: "A line of a cart"},
			{symbol: "Cart", kind: KindClass, signature: "export class Cart extends EventEmitter", doc: "A shopping cart.\n\nEmits \"change\""},
			{symbol: "add", crumb: "Cart", kind: KindMethod, signature: "add(product: Product, quantity = 1): void", doc: "Adds quantity units of product"},
			{symbol: "size", crumb: "Cart", kind: KindMethod, signature: "get size(): number"},
			{symbol: "total", crumb: "Cart", kind: KindMethod, signature: "total(): Money", doc: "The total price in minor units"},
			{symbol: "formatMoney", kind: KindFunction, signature: "export function formatMoney(m: Money): string", doc: "formatMoney renders minor units"},
			{symbol: "parseMoney", kind: KindFunction, signature: "export const parseMoney = (text: string): Money =>", doc: "Parses \"12.34 EUR\"."},
			{symbol: "CartEvents", kind: KindModule, signature: "export namespace CartEvents"},
		},
	},
	{
		file:    "TodoList.tsx",
		symbols: []string{"Todo", "Filter", "TodoItemProps", "TodoItem", "FilterBar", "State", "TodoList", "getDerivedStateFromError", "add", "toggle", "clearDone", "componentDidUpdate", "remaining", "visible", "render", "useRemaining"},
		wants: []want{
			{symbol: "TodoItem", kind: KindFunction, signature: "export function TodoItem({ todo, onToggle }: TodoItemProps)", doc: "One row of the list."},
			{symbol: "FilterBar", kind: KindFunction, signature: "export const FilterBar = ({ value, onChange }: { value: Filter; onChange: (f: Filter) => void }) =>"},
			{symbol: "TodoList", kind: KindClass, signature: "export default class TodoList extends React.Component<{ initial?: Todo[] }, State>", doc: "The todo list page."},
			{symbol: "add", crumb: "TodoList", kind: KindMethod, signature: "add = () =>", doc: "Adds the draft as a new todo."},
			{symbol: "render", crumb: "TodoList", kind: KindMethod, signature: "render()"},
			{symbol: "useRemaining", kind: KindFunction, signature: "export function useRemaining(todos: Todo[]): number", doc: "Counts the todos left to do."},
		},
	},
	{
		file:    "LruCache.java",
		symbols: []string{"LruCache", "get", "put", "computeIfAbsent", "hitRatio", "moveToFront", "pushFront", "unlink", "Node", "Policy", "tracksFrequency", "Cache"},
		wants: []want{
			{symbol: "LruCache", kind: KindClass, signature: "public final class LruCache<K, V> implements Cache<K, V>", doc: "A fixed-capacity cache that evicts the least recently used entry.\n\n<p>Not thread-safe."},
			{symbol: "get", crumb: "LruCache", kind: KindMethod, signature: "public V get(K key)", doc: "Returns the value for key"},
			{symbol: "put", crumb: "LruCache", kind: KindMethod, signature: "public void put(K key, V value)"},
			{symbol: "computeIfAbsent", crumb: "LruCache", kind: KindMethod, signature: "public V computeIfAbsent(K key, Function<? super K, ? extends V> loader)", doc: "Returns the cached value or computes"},
			{symbol: "Node", crumb: "LruCache", kind: KindClass, signature: "private static final class Node<K, V>", doc: "A doubly linked list entry."},
			{symbol: "Policy", kind: KindEnum, signature: "enum Policy", doc: "Eviction policies"},
			{symbol: "Cache", kind: KindInterface, signature: "interface Cache<K, V>"},
		},
	},
	{
		file:    "RateLimiter.kt",
		symbols: []string{"DEFAULT_BURST", "Key", "RateLimiter", "tryAcquire", "waitTime", "evictIdle", "toString", "forget", "refill", "now", "Bucket", "Companion", "perMinute", "perSecond", "Outcome", "Tier", "Limits", "forTier", "guard", "Admission", "admit", "Companion"},
		wants: []want{
			{symbol: "DEFAULT_BURST", kind: KindMixed, doc: "How many tokens a new bucket starts with."},
			{symbol: "RateLimiter", kind: KindClass, signature: "class RateLimiter(private val ratePerSecond: Double, private val burst: Int = DEFAULT_BURST, private val clock: Clock = Clock.systemUTC())", doc: "A token-bucket rate limiter keyed by client."},
			{symbol: "waitTime", crumb: "RateLimiter", kind: KindMethod, signature: "fun waitTime(key: Key): Duration", doc: "How long [key] must wait for one token."},
			{symbol: "evictIdle", crumb: "RateLimiter", kind: KindMethod, signature: "fun evictIdle(idle: Duration)", doc: "Drops buckets idle"},
			{symbol: "Companion", crumb: "RateLimiter", kind: KindClass, signature: "companion object"},
			{symbol: "Outcome", kind: KindInterface, signature: "sealed interface Outcome<out T>", doc: "Outcome of a rate-limited call."},
			{symbol: "Tier", kind: KindEnum, signature: "enum class Tier"},
			{symbol: "Limits", kind: KindClass, signature: "object Limits"},
			{symbol: "guard", kind: KindFunction, signature: "fun <T> RateLimiter.guard(key: Key, block: () -> T): Outcome<T>", doc: "Runs [block] if [limiter] allows it"},
			// A functional interface, which the grammar reads once its fun
			// modifier is blanked (kotlinRepair).
			{symbol: "Admission", kind: KindInterface, signature: "interface Admission", doc: "Decides whether a call may go ahead."},
		},
	},
	{
		file:    "ringbuf.c",
		symbols: []string{"RB_MIN_CAPACITY", "RB_IS_POW2", "ringbuf", "rb_status", "rb_used", "rb_new", "rb_free", "rb_free_space", "rb_write", "rb_read", "rb_status_of"},
		wants: []want{
			{symbol: "ringbuf", kind: KindStruct, signature: "struct ringbuf", doc: "A ring buffer; head and tail only ever grow"},
			{symbol: "rb_status", kind: KindEnum, signature: "typedef enum rb_status"},
			{symbol: "rb_new", kind: KindFunction, signature: "struct ringbuf *rb_new(size_t capacity)", doc: "rb_new - allocate a ring buffer.\n@capacity: size in bytes"},
			{symbol: "rb_free", kind: KindFunction, signature: "void rb_free(struct ringbuf *rb)", doc: "rb_free releases rb; NULL is allowed."},
			{symbol: "rb_write", kind: KindFunction, signature: "size_t rb_write(struct ringbuf *rb, const void *buf, size_t len)", doc: "rb_write copies up to len bytes in"},
			{symbol: "rb_status_of", kind: KindFunction, signature: "rb_status rb_status_of(const struct ringbuf *rb)"},
		},
	},
	{
		// Macros as C++ libraries write them (cRepair).
		file:    "journal.cc",
		symbols: []string{"journal", "Journal", "Options", "Record", "State", "Append", "Flush", "ReadAll", "Cursor", "Seek", "Replay"},
		wants: []want{
			{symbol: "Journal", crumb: "journal", kind: KindClass, signature: "class JOURNAL_API Journal final", doc: "Journal keeps records in memory"},
			{symbol: "Append", crumb: "journal > Journal", kind: KindMethod, signature: "long Journal::Append(std::string payload)"},
			{symbol: "ReadAll", crumb: "journal", kind: KindFunction, signature: "std::vector<Journal::Record> ReadAll(const std::string& path)", doc: "ReadAll reads every record"},
			{symbol: "Cursor", crumb: "journal", kind: KindClass, signature: "class JOURNAL_API Cursor", doc: "Cursor walks the records"},
		},
	},
	{
		// Two macros stand between "class" and the name (cRepair).
		file: "dispatcher.hpp",
		symbols: []string{"tasks", "Dispatcher", "Dispatcher", "~Dispatcher", "Submit", "TrySubmit", "Shutdown", "Wait",
			"WaitFor", "Pending", "Workers", "SetLimit", "Pause", "Resume", "Stats", "Snapshot", "Drain", "TakeLocked", "Loop"},
		wants: []want{
			{symbol: "Dispatcher", crumb: "tasks", kind: KindClass, signature: "class TASKS_EXPORT TASKS_LOCKABLE Dispatcher", doc: "Dispatcher owns the workers"},
			{symbol: "Submit", crumb: "tasks > Dispatcher", kind: KindMethod, doc: "Submit queues a task."},
			{symbol: "Stats", crumb: "tasks > Dispatcher", kind: KindStruct, signature: "struct Stats", doc: "Stats counts what the dispatcher has done"},
			{symbol: "Drain", crumb: "tasks > Dispatcher", kind: KindMethod, signature: "std::size_t Drain()", doc: "Drain runs the queued tasks"},
		},
	},
	{
		file:    "geometry.hpp",
		symbols: []string{"geo", "kPi", "Point", "Shape", "Circle", "Rect", "totalArea", "intersect"},
		wants: []want{
			{symbol: "geo", kind: KindModule, signature: "namespace geo"},
			{symbol: "kPi", crumb: "geo", kind: KindConstant, signature: "constexpr double kPi = 3.14159265358979323846"},
			{symbol: "Point", crumb: "geo", kind: KindStruct, signature: "struct Point", doc: "A point in the plane."},
			{symbol: "Shape", crumb: "geo", kind: KindClass, signature: "class Shape", doc: "Base class of every shape."},
			{symbol: "Circle", crumb: "geo", kind: KindClass, signature: "class Circle : public Shape", doc: "A circle around its origin."},
			{symbol: "totalArea", crumb: "geo", kind: KindFunction, signature: "template <typename It> double totalArea(It first, It last)", doc: "Sums the areas of shapes."},
			{symbol: "intersect", crumb: "geo > Rect", kind: KindMethod, signature: "inline geo::Rect geo::Rect::intersect(const Rect& other) const", doc: "Intersection of two rectangles"},
		},
	},
	{
		file:    "OrderService.cs",
		symbols: []string{"Shop.Orders", "OrderStatus", "OrderLine", "IOrderRepository", "OrderService", "PlaceAsync", "PayAsync", "CancelAsync", "ShipAsync", "RefundAsync", "Revenue", "LoadAsync", "TransitionAsync", "Order"},
		wants: []want{
			{symbol: "Shop.Orders", kind: KindModule, signature: "namespace Shop.Orders"},
			{symbol: "OrderStatus", crumb: "Shop.Orders", kind: KindEnum, signature: "public enum OrderStatus", doc: "The states an order goes through."},
			{symbol: "IOrderRepository", crumb: "Shop.Orders", kind: KindInterface, signature: "public interface IOrderRepository", doc: "Persists orders."},
			{symbol: "OrderService", crumb: "Shop.Orders", kind: KindClass, signature: "public sealed class OrderService", doc: "Places, pays and cancels orders"},
			{symbol: "PlaceAsync", crumb: "Shop.Orders > OrderService", kind: KindMethod, signature: "public async Task<Order> PlaceAsync(IReadOnlyList<OrderLine> lines)", doc: "Creates a pending order from lines."},
			{symbol: "ShipAsync", crumb: "Shop.Orders > OrderService", kind: KindMethod, signature: "public async Task ShipAsync(Guid id)", doc: "Marks a paid order shipped."},
			// Under #if FEATURE_REFUNDS (flatten).
			{symbol: "RefundAsync", crumb: "Shop.Orders > OrderService", kind: KindMethod, signature: "public async Task RefundAsync(Guid id)", doc: "Refunds a paid order"},
			{symbol: "TransitionAsync", crumb: "Shop.Orders > OrderService", kind: KindMethod, signature: "private async Task TransitionAsync(Order order, OrderStatus next)"},
			{symbol: "Order", crumb: "Shop.Orders", kind: KindClass, signature: "public class Order"},
		},
	},
	{
		file:    "tokenizer.rs",
		symbols: []string{"MAX_NUMBER_LEN", "Token", "LexError", "fmt", "Lexer", "new", "bump", "skip_whitespace", "number", "offset", "at_digit", "is_done", "precedence", "drain", "ident", "next", "tokenize", "tokens", "tests"},
		wants: []want{
			{symbol: "MAX_NUMBER_LEN", kind: KindMixed, signature: "pub const MAX_NUMBER_LEN: usize = 32", doc: "Maximum length of a number literal"},
			{symbol: "Token", kind: KindEnum, signature: "pub enum Token", doc: "A lexical token."},
			{symbol: "LexError", kind: KindStruct, signature: "pub struct LexError", doc: "Where and why tokenizing failed."},
			{symbol: "new", crumb: "Lexer", kind: KindMethod, signature: "pub fn new(src: &'a str) -> Self", doc: "Creates a lexer over src."},
			{symbol: "number", crumb: "Lexer", kind: KindMethod, signature: "fn number(&mut self) -> Result<Token, LexError>", doc: "Reads a number literal"},
			{symbol: "drain", crumb: "Lexer", kind: KindMethod, signature: "pub fn drain(&mut self) -> Result<Vec<Token>, LexError>", doc: "Consumes the rest of the input and returns every token, stopping\nat the first error."},
			{symbol: "tokenize", kind: KindFunction, signature: "pub fn tokenize(src: &str) -> Result<Vec<Token>, LexError>", doc: "Tokenizes src completely."},
			// Written inside a macro invocation (unwrapItemMacros).
			{symbol: "tokens", kind: KindFunction, signature: "pub fn tokens(src: &str) -> impl Iterator<Item = Token> + '_", doc: "Tokenizes src lazily"},
			{symbol: "tests", kind: KindModule, signature: "mod tests"},
		},
	},
	{
		file:    "ledger.rb",
		symbols: []string{"Ledger", "UnbalancedError", "Book", "initialize", "record", "balance", "each", "history", "accounts", "trial_balance", "transfer", "to_s", "from_csv", "audit_log", "open"},
		wants: []want{
			{symbol: "Ledger", kind: KindModule, signature: "module Ledger", doc: "Bookkeeping primitives."},
			{symbol: "UnbalancedError", crumb: "Ledger", kind: KindClass, doc: "Raised when a transaction does not balance."},
			{symbol: "Book", crumb: "Ledger", kind: KindClass, signature: "class Book", doc: "A double-entry ledger"},
			{symbol: "record", crumb: "Ledger > Book", kind: KindMethod, signature: "def record(description, lines, at: Time.now)", doc: "Records a transaction. +lines+ maps account names to amounts;\npositive amounts"},
			{symbol: "trial_balance", crumb: "Ledger > Book", kind: KindMethod, signature: "def trial_balance", doc: "A trial balance"},
			{symbol: "from_csv", crumb: "Ledger > Book", kind: KindMethod, signature: "def self.from_csv(name, io)", doc: "Loads a book from CSV lines"},
			{symbol: "audit_log", crumb: "Ledger > Book", kind: KindMethod, signature: "def audit_log"},
			{symbol: "open", crumb: "Ledger", kind: KindMethod, signature: "def self.open(name, &block)"},
		},
	},
	{
		file:    "UserController.php",
		symbols: []string{"display_name", "initials", "Presenter", "UserController", "__construct", "index", "show", "store", "update", "destroy", "present", "Role", "label"},
		wants: []want{
			{symbol: "display_name", kind: KindFunction, signature: "function display_name(string $first, string $last): string", doc: "Formats a display name."},
			// Declared under a function_exists guard (flattenBody).
			{symbol: "initials", kind: KindFunction, signature: "function initials(string $name): string", doc: "The initials of a display name"},
			{symbol: "Presenter", kind: KindInterface, signature: "interface Presenter"},
			{symbol: "UserController", kind: KindClass, signature: "final class UserController extends Controller implements Presenter", doc: "CRUD endpoints for users.\n\nEvery action"},
			{symbol: "__construct", crumb: "UserController", kind: KindMethod, signature: "public function __construct(private readonly Mailer $mailer)"},
			{symbol: "index", crumb: "UserController", kind: KindMethod, signature: "public function index(int $page = 1): array", doc: "Lists users, a page at a time."},
			{symbol: "update", crumb: "UserController", kind: KindMethod, signature: "public function update(int $id, array $input): array", doc: "Updates the given fields of a user."},
			{symbol: "Role", kind: KindEnum, signature: "enum Role: string"},
		},
	},
	{
		file:    "Graph.scala",
		symbols: []string{"VertexId", "Edge", "Traversable", "Graph", "neighbours", "vertices", "addEdge", "bfs", "shortestPaths", "hasCycle", "reverse", "edges", "outDegree", "toString", "Graph", "apply", "gcd", "Colour"},
		wants: []want{
			{symbol: "Traversable", kind: KindTrait, signature: "trait Traversable", doc: "Something that can be traversed"},
			{symbol: "Graph", kind: KindClass, signature: "class Graph private (private val adjacency: Map[VertexId, List[Edge]]) extends Traversable", doc: "A directed weighted graph stored as adjacency lists."},
			{symbol: "bfs", crumb: "Graph", kind: KindMethod, signature: "def bfs(start: VertexId): List[VertexId]", doc: "Breadth-first order"},
			{symbol: "shortestPaths", crumb: "Graph", kind: KindMethod, signature: "def shortestPaths(source: VertexId): Map[VertexId, Double]", doc: "Dijkstra's shortest distances from source.\nUnreachable vertices"},
			{symbol: "hasCycle", crumb: "Graph", kind: KindMethod, signature: "def hasCycle: Boolean", doc: "Whether the graph has a cycle"},
			{symbol: "Colour", kind: KindEnum, signature: "enum Colour"},
		},
	},
	{
		file:    "Downloader.swift",
		symbols: []string{"DownloadError", "ProgressReporting", "defaultTimeout", "Downloader", "init", "fetch", "cancel", "cancelAll", "fetchWithRetries", "fetchOnce", "deinit", "Downloader", "fetchAll", "Mirror", "formatBytes"},
		wants: []want{
			{symbol: "DownloadError", kind: KindEnum, signature: "enum DownloadError: Error", doc: "Errors a download can fail with."},
			{symbol: "ProgressReporting", kind: KindInterface, signature: "protocol ProgressReporting: AnyObject", doc: "Something that can report download progress."},
			{symbol: "defaultTimeout", kind: KindConstant, signature: "let defaultTimeout: TimeInterval = 30"},
			{symbol: "Downloader", kind: KindClass, signature: "public final class Downloader", doc: "A file downloader with a size limit, retries and progress reporting.\n\nUse one instance per host."},
			{symbol: "init", crumb: "Downloader", kind: KindMethod, signature: "public init(maxBytes: Int = 10_000_000, retries: Int = 2, session: URLSession = .shared)"},
			{symbol: "fetch", crumb: "Downloader", kind: KindMethod, signature: "public func fetch(_ url: URL) async throws -> Data", doc: "Downloads url, reusing an in-flight download"},
			{symbol: "deinit", crumb: "Downloader", kind: KindMethod, signature: "deinit"},
			{symbol: "fetchAll", kind: KindImpl, signature: "extension Downloader"},
		},
	},
	{
		file:    "stack.lua",
		symbols: []string{"insert", "remove", "DEFAULT_LIMIT", "Stack", "new", "push", "pop", "peek", "size", "iter", "is_balanced", "reverse"},
		wants: []want{
			{symbol: "new", crumb: "Stack", kind: KindFunction, signature: "function Stack.new(limit)", doc: "Creates a stack holding at most limit items.\n@param limit"},
			{symbol: "push", crumb: "Stack", kind: KindMethod, signature: "function Stack:push(value)", doc: "Pushes a value; errors when full."},
			{symbol: "iter", crumb: "Stack", kind: KindMethod, signature: "function Stack:iter()", doc: "Iterates from the top of the stack down."},
			{symbol: "is_balanced", kind: KindFunction, signature: "local function is_balanced(text)"},
			{symbol: "reverse", crumb: "Stack", kind: KindFunction, signature: "Stack.reverse = function(list)", doc: "Reverses a list using a stack."},
		},
	},
	{
		file:    "shortener.ex",
		symbols: []string{"Shortener.Link", "t", "Shortener", "@alphabet", "@code_length", "start_link", "shorten", "resolve", "top", "prune", "count", "delete", "generate_code", "unique_code", "Shortener.Describable", "describe"},
		wants: []want{
			{symbol: "Shortener.Link", kind: KindModule, signature: "defmodule Shortener.Link", doc: "A shortened link: a code and the URL it points to."},
			{symbol: "Shortener", kind: KindModule, signature: "defmodule Shortener", doc: "Creates and resolves short links.\n\nLinks live in an Agent"},
			{symbol: "shorten", crumb: "Shortener", kind: KindFunction, signature: "def shorten(url) when is_binary(url)", doc: "Shortens url and returns the new link.\n\nFails unless"},
			{symbol: "resolve", crumb: "Shortener", kind: KindFunction, signature: "def resolve(code)", doc: "Looks a code up and counts the hit."},
			{symbol: "prune", crumb: "Shortener", kind: KindFunction, signature: "def prune(%DateTime{} = cutoff)", doc: "Deletes links not visited since cutoff."},
		},
	},
	{
		file:    "deploy.sh",
		symbols: []string{"SERVICE", "REMOTE_DIR", "DRY_RUN", "log", "die", "run", "usage", "build", "deploy"},
		wants: []want{
			{symbol: "run", kind: KindFunction, signature: "run()", doc: "run executes a command, or only prints it in dry-run mode."},
			{symbol: "usage", kind: KindFunction, signature: "usage()"},
			{symbol: "build", kind: KindFunction, signature: "function build", doc: "build compiles the binary"},
			{symbol: "deploy", kind: KindFunction, signature: "deploy()", doc: "deploy copies the binary to host and restarts the service, keeping the\nprevious binary for rollback."},
		},
	},
}

// fixtureFiles lists the files of testdata by name; its folders (the
// fuzz corpus of a failing input, say) are not fixtures.
func fixtureFiles(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("reading fixture: %v", err)
	}
	return src
}

// TestFixtures checks, for a realistic file in every grammar language, the
// coverage invariant and what the chunks say about the definitions.
func TestFixtures(t *testing.T) {
	covered := map[string]bool{}
	for _, fx := range fixtures {
		t.Run(fx.file, func(t *testing.T) {
			src := readFixture(t, fx.file)
			language := lang.Detect(fx.file, src)
			if !lang.HasGrammar(language) {
				t.Fatalf("fixture %s: language %q has no grammar", fx.file, language)
			}
			covered[language] = true
			chunks := Split(fx.file, language, src)
			checkCoverage(t, src, chunks)

			var all []string
			for _, c := range chunks {
				all = append(all, c.Symbols...)
				// Blank lines after a definition may push it a little
				// over the bounds, nothing else.
				if n := c.EndLine - c.StartLine + 1; n > maxChunkLines+2 {
					t.Errorf("chunk %d-%d %v is %d lines", c.StartLine, c.EndLine, c.Symbols, n)
				}
			}
			if !isSubsequence(fx.symbols, all) {
				t.Errorf("symbols in order\n got: %q\nwant (as a subsequence): %q", all, fx.symbols)
			}
			for _, w := range fx.wants {
				c, ok := findChunk(chunks, w.symbol, w.crumb)
				if !ok {
					t.Errorf("no chunk defines %q with breadcrumb %q", w.symbol, w.crumb)
					continue
				}
				if c.Kind != w.kind {
					t.Errorf("%s: kind %q, want %q", w.symbol, c.Kind, w.kind)
				}
				if w.signature != "" && c.Signature != w.signature {
					t.Errorf("%s: signature\n got: %q\nwant: %q", w.symbol, c.Signature, w.signature)
				}
				if w.doc == "" && c.DocComment != "" && len(c.Symbols) == 1 {
					t.Errorf("%s: doc comment %q, want none", w.symbol, c.DocComment)
				}
				if !strings.Contains(c.DocComment, w.doc) {
					t.Errorf("%s: doc comment\n got: %q\nwant it to contain: %q", w.symbol, c.DocComment, w.doc)
				}
			}
		})
	}
	for _, g := range lang.Grammars() {
		if !covered[g] {
			t.Errorf("no fixture for grammar language %q", g)
		}
	}
}

// findChunk returns the first chunk defining symbol within crumb.
func findChunk(chunks []Chunk, symbol, crumb string) (Chunk, bool) {
	for _, c := range chunks {
		if c.Breadcrumb == crumb && slices.Contains(c.Symbols, symbol) {
			return c, true
		}
	}
	return Chunk{}, false
}

func isSubsequence(sub, seq []string) bool {
	i := 0
	for _, s := range seq {
		if i < len(sub) && s == sub[i] {
			i++
		}
	}
	return i == len(sub)
}
