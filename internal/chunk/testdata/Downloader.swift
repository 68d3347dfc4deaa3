import Foundation

/// Errors a download can fail with.
enum DownloadError: Error {
    case badStatus(Int)
    case tooLarge(bytes: Int)
    case cancelled
}

/// Something that can report download progress.
protocol ProgressReporting: AnyObject {
    func downloadDidProgress(_ fraction: Double)
    func downloadDidFinish(_ url: URL, result: Result<Data, Error>)
}

let defaultTimeout: TimeInterval = 30

/// A file downloader with a size limit, retries and progress reporting.
///
/// Use one instance per host.
@MainActor
public final class Downloader {
    public let maxBytes: Int
    public var retries: Int
    weak var delegate: ProgressReporting?

    private let session: URLSession
    private var tasks: [URL: Task<Data, Error>] = [:]

    public init(maxBytes: Int = 10_000_000, retries: Int = 2, session: URLSession = .shared) {
        self.maxBytes = maxBytes
        self.retries = retries
        self.session = session
    }

    /// Downloads url, reusing an in-flight download of the same URL.
    public func fetch(_ url: URL) async throws -> Data {
        if let existing = tasks[url] {
            return try await existing.value
        }
        let task = Task { try await self.fetchWithRetries(url) }
        tasks[url] = task
        defer { tasks[url] = nil }
        do {
            let data = try await task.value
            delegate?.downloadDidFinish(url, result: .success(data))
            return data
        } catch {
            delegate?.downloadDidFinish(url, result: .failure(error))
            throw error
        }
    }

    /// Cancels the download of url, if any.
    public func cancel(_ url: URL) {
        tasks[url]?.cancel()
        tasks[url] = nil
    }

    public func cancelAll() {
        for task in tasks.values {
            task.cancel()
        }
        tasks.removeAll()
    }

    private func fetchWithRetries(_ url: URL) async throws -> Data {
        var attempt = 0
        while true {
            do {
                return try await fetchOnce(url)
            } catch DownloadError.badStatus(let code) where code >= 500 && attempt < retries {
                attempt += 1
                try await Task.sleep(nanoseconds: UInt64(attempt) * 500_000_000)
            }
        }
    }

    private func fetchOnce(_ url: URL) async throws -> Data {
        var request = URLRequest(url: url, timeoutInterval: defaultTimeout)
        request.setValue("bytes=0-\(maxBytes)", forHTTPHeaderField: "Range")
        let (data, response) = try await session.data(for: request)
        if Task.isCancelled {
            throw DownloadError.cancelled
        }
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw DownloadError.badStatus((response as? HTTPURLResponse)?.statusCode ?? 0)
        }
        if data.count > maxBytes {
            throw DownloadError.tooLarge(bytes: data.count)
        }
        delegate?.downloadDidProgress(1)
        return data
    }

    deinit {
        for task in tasks.values {
            task.cancel()
        }
    }
}

extension Downloader {
    /// Downloads every URL concurrently.
    func fetchAll(_ urls: [URL]) async throws -> [URL: Data] {
        try await withThrowingTaskGroup(of: (URL, Data).self) { group in
            for url in urls {
                group.addTask { (url, try await self.fetch(url)) }
            }
            var results: [URL: Data] = [:]
            for try await (url, data) in group {
                results[url] = data
            }
            return results
        }
    }
}

struct Mirror {
    var primary: URL
    var fallback: URL?
}

/// Formats a byte count for humans.
func formatBytes(_ count: Int) -> String {
    ByteCountFormatter.string(fromByteCount: Int64(count), countStyle: .file)
}
