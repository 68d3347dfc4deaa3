// journal.cc: an append-only journal of records, written the way C++
// libraries write code: export and attribute macros, a namespace opened by
// a macro, nested types and lock annotations.

#include <mutex>
#include <string>
#include <vector>

#include "journal/macros.h"

namespace journal {
JOURNAL_NAMESPACE_BEGIN

// Journal keeps records in memory until Flush writes them out.
class JOURNAL_API Journal final {
 public:
  // Options says how a journal flushes.
  class Options {
   public:
    Options() = default;
    int max_records = 1024;
    bool sync = false;
  };

  // Record is one entry of the journal.
  struct Record {
    long sequence;
    std::string payload;
  };

  enum class State { kOpen, kClosed };

  explicit Journal(const Options& options);

  // Append adds a record and returns its sequence number.
  JOURNAL_MUST_USE_RESULT long Append(std::string payload) JOURNAL_LOCKS_EXCLUDED(mu_);

  // Flush writes the pending records and reports how many it wrote.
  int Flush() JOURNAL_LOCKS_EXCLUDED(mu_);

 private:
  Options options_;
  std::mutex mu_;
  std::vector<Record> pending_ JOURNAL_GUARDED_BY(mu_);
  long next_sequence_ JOURNAL_GUARDED_BY(mu_) = 1;
  State state_ = State::kOpen;
};

JOURNAL_INLINE Journal::Journal(const Options& options) : options_(options) {}

JOURNAL_INLINE long Journal::Append(std::string payload) {
  std::lock_guard<std::mutex> lock(mu_);
  JOURNAL_TRY {
    pending_.push_back(Record{next_sequence_, std::move(payload)});
  }
  JOURNAL_CATCH(payload)
  if (static_cast<int>(pending_.size()) >= options_.max_records) {
    Flush();
  }
  return next_sequence_++;
}

JOURNAL_INLINE int Journal::Flush() {
  std::lock_guard<std::mutex> lock(mu_);
  int written = static_cast<int>(pending_.size());
  pending_.clear();
  return written;
}

// ReadAll reads every record of a journal file, in sequence order.
JOURNAL_API std::vector<Journal::Record> ReadAll(const std::string& path) {
  std::vector<Journal::Record> records;
  JOURNAL_TRY {
    Reader reader(path);
    Journal::Record record;
    while (reader.Next(&record)) {
      records.push_back(record);
    }
  }
  JOURNAL_CATCH(path)
  return records;
}

// Cursor walks the records of a journal from a sequence number on.
class JOURNAL_API Cursor {
 public:
  explicit Cursor(long from) : next_(from) {}

  // Seek moves the cursor to sequence, if the journal still holds it.
  JOURNAL_MUST_USE_RESULT bool Seek(long sequence) {
    if (sequence < next_) {
      return false;
    }
    next_ = sequence;
    return true;
  }

 private:
  long next_;
};

// Replay calls fn for every record of a journal file, in order.
template <typename Fn, JOURNAL_ENABLE_IF(std::is_invocable_v<Fn, const Journal::Record&>)>
JOURNAL_API int Replay(const std::string& path, Fn&& fn) {
  int count = 0;
  for (const auto& record : ReadAll(path)) {
    fn(record);
    ++count;
  }
  return count;
}

JOURNAL_NAMESPACE_END
}  // namespace journal
