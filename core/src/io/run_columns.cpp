#include "run_columns.h"

#include "cbor_head.h"

#include <algorithm>
#include <array>
#include <ostream>
#include <stdexcept>
#include <string>
#include <zstd.h>

namespace lifeline::run_columns {

namespace {
// Items per block: what the reader holds decoded at once (a block's columns), and what one damaged length can claim.
constexpr size_t kBlock = 16384;
// zstd's level 3 (its default): zlib's size at a fifth of its time; level 19 is 15% smaller and many times slower
// (docs/decisions.md, "Run files as compressed columns").
constexpr int kLevel = 3;
// The compressor's window, and the most the reader accepts: a crafted frame cannot make it allocate more.
constexpr int kWindowLog = 22;
uint64_t zigzag(uint64_t difference) // the difference of two values in two's complement
{
    return (difference << 1) ^ uint64_t(int64_t(difference) >> 63);
}
uint64_t unzigzag(uint64_t v)
{
    return (v >> 1) ^ (~(v & 1) + 1);
}

// One column of a block: varints (LEB128) or raw bytes.
class ColumnOut {
public:
    void put(uint64_t v)
    {
        while (v >= 0x80) {
            m_bytes.push_back(uint8_t(v | 0x80));
            v >>= 7;
        }
        m_bytes.push_back(uint8_t(v));
    }
    void putDifference(int64_t value, int64_t base) { put(zigzag(uint64_t(value) - uint64_t(base))); }
    void raw(const void* data, size_t n)
    {
        const auto* bytes = static_cast<const uint8_t*>(data);
        m_bytes.insert(m_bytes.end(), bytes, bytes + n);
    }
    const std::vector<uint8_t>& bytes() const { return m_bytes; }
    void clear() { m_bytes.clear(); }

private:
    std::vector<uint8_t> m_bytes;
};

class ColumnIn {
public:
    ColumnIn(const uint8_t* data, size_t size, const char* name)
        : m_data(data)
        , m_end(data + size)
        , m_name(name)
    {
    }
    uint64_t get()
    {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_data == m_end)
                fail("ends early");
            const uint8_t byte = *m_data++;
            v |= uint64_t(byte & 0x7f) << shift;
            if (byte < 0x80)
                return v;
        }
        fail("holds a number too long");
    }
    // A whole number no greater than `most`.
    uint64_t get(uint64_t most)
    {
        const uint64_t v = get();
        if (v > most)
            fail("holds a number out of range");
        return v;
    }
    int64_t getDifference(int64_t base) { return int64_t(uint64_t(base) + unzigzag(get())); }
    const uint8_t* raw(size_t n)
    {
        if (size_t(m_end - m_data) < n)
            fail("ends early");
        const uint8_t* at = m_data;
        m_data += n;
        return at;
    }
    void expectEnd() const
    {
        if (m_data != m_end)
            fail("goes on past its items");
    }

private:
    [[noreturn]] void fail(const char* what) const
    {
        throw std::runtime_error(std::string("the ") + m_name + " column " + what);
    }
    const uint8_t* m_data;
    const uint8_t* m_end;
    const char* m_name;
};

// A zstd stream into a CBOR byte string of indefinite length: a chunk each time the compressor's buffer fills.
class CompressedOut {
public:
    explicit CompressedOut(std::ostream& out)
        : m_out(out)
        , m_context(ZSTD_createCCtx())
        , m_buffer(ZSTD_CStreamOutSize())
    {
        if (m_context == nullptr)
            throw std::bad_alloc();
        ZSTD_CCtx_setParameter(m_context, ZSTD_c_compressionLevel, kLevel);
        ZSTD_CCtx_setParameter(m_context, ZSTD_c_windowLog, kWindowLog);
        ZSTD_CCtx_setParameter(m_context, ZSTD_c_checksumFlag, 1); // a damaged file is found, not misread
        m_out.put(char(0x5f));
    }
    ~CompressedOut() { ZSTD_freeCCtx(m_context); }
    CompressedOut(const CompressedOut&) = delete;
    CompressedOut& operator=(const CompressedOut&) = delete;

    void write(const std::vector<uint8_t>& bytes) { push(bytes.data(), bytes.size(), ZSTD_e_continue); }
    void finish()
    {
        push(nullptr, 0, ZSTD_e_end);
        m_out.put(char(0xff));
    }

private:
    void push(const uint8_t* data, size_t size, ZSTD_EndDirective mode)
    {
        ZSTD_inBuffer in { data, size, 0 };
        for (;;) {
            ZSTD_outBuffer out { m_buffer.data(), m_buffer.size(), 0 };
            const size_t left = ZSTD_compressStream2(m_context, &out, &in, mode);
            if (ZSTD_isError(left))
                throw std::runtime_error(std::string("compressing the run: ") + ZSTD_getErrorName(left));
            if (out.pos > 0) {
                cborHead(m_out, 2, out.pos);
                m_out.write(reinterpret_cast<const char*>(m_buffer.data()), std::streamsize(out.pos));
            }
            if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size)
                return;
        }
    }
    std::ostream& m_out;
    ZSTD_CCtx* m_context;
    std::vector<uint8_t> m_buffer;
};

// The same stream read back, a piece at a time.
class CompressedIn {
public:
    explicit CompressedIn(const std::vector<uint8_t>& compressed, const char* table)
        : m_context(ZSTD_createDCtx())
        , m_in { compressed.data(), compressed.size(), 0 }
        , m_table(table)
    {
        if (m_context == nullptr)
            throw std::bad_alloc();
        ZSTD_DCtx_setParameter(m_context, ZSTD_d_windowLogMax, kWindowLog);
    }
    ~CompressedIn() { ZSTD_freeDCtx(m_context); }
    CompressedIn(const CompressedIn&) = delete;
    CompressedIn& operator=(const CompressedIn&) = delete;

    // Exactly `n` bytes, else the stream is damaged.
    void read(uint8_t* into, size_t n)
    {
        ZSTD_outBuffer out { into, n, 0 };
        while (out.pos < n) {
            const size_t before = out.pos;
            const size_t consumed = m_in.pos;
            m_left = ZSTD_decompressStream(m_context, &out, &m_in);
            if (ZSTD_isError(m_left))
                fail(std::string("is damaged (") + ZSTD_getErrorName(m_left) + ")");
            if (out.pos == before && m_in.pos == consumed)
                fail("ends early");
        }
    }
    uint64_t varint()
    {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            uint8_t byte = 0;
            read(&byte, 1);
            v |= uint64_t(byte & 0x7f) << shift;
            if (byte < 0x80)
                return v;
        }
        fail("is damaged (a number too long)");
    }
    // Nothing may follow the last block, and the frame must be complete (zstd answers 0 once it is).
    void expectEnd()
    {
        while (m_in.pos < m_in.size || m_left != 0) {
            uint8_t extra = 0;
            ZSTD_outBuffer out { &extra, 1, 0 };
            const size_t consumed = m_in.pos;
            m_left = ZSTD_decompressStream(m_context, &out, &m_in);
            if (ZSTD_isError(m_left))
                fail(std::string("is damaged (") + ZSTD_getErrorName(m_left) + ")");
            if (out.pos > 0)
                fail("goes on past its items");
            if (m_in.pos == consumed)
                break;
        }
        if (m_in.pos != m_in.size || m_left != 0)
            fail("ends early");
    }
    [[noreturn]] void fail(const std::string& what) const
    {
        throw std::runtime_error(std::string("the ") + m_table + " table " + what);
    }

private:
    ZSTD_DCtx* m_context;
    ZSTD_inBuffer m_in;
    const char* m_table;
    size_t m_left = 1; // zstd's answer: 0 once a frame is complete and all of it given out
};

// A block: its item count, then each column's length and bytes.
template <size_t N> void writeBlock(CompressedOut& out, size_t items, std::array<ColumnOut, N>& columns)
{
    ColumnOut head;
    head.put(items);
    for (const ColumnOut& column : columns)
        head.put(column.bytes().size());
    out.write(head.bytes());
    for (ColumnOut& column : columns) {
        out.write(column.bytes());
        column.clear();
    }
}

// A block's columns, read whole (a block is at most kBlock items of at most `mostBytesPerItem` bytes a column).
template <size_t N>
size_t readBlock(
    CompressedIn& in, size_t itemsLeft, size_t mostBytesPerItem, std::array<std::vector<uint8_t>, N>& columns)
{
    const uint64_t items = in.varint();
    if (items == 0 || items > kBlock || items > itemsLeft)
        in.fail("has a block of a wrong size");
    for (auto& column : columns) {
        const uint64_t length = in.varint();
        if (length > items * mostBytesPerItem)
            in.fail("has a column longer than its items");
        column.resize(length);
    }
    for (auto& column : columns)
        in.read(column.data(), column.size());
    return size_t(items);
}

// A frame written with its checksum (RFC 8878, 3.1.1: the magic number, then the frame header's descriptor with the
// Content_Checksum_flag in bit 2). Every frame Lifeline writes has one; a frame without one is not ours, and refusing
// it keeps crafted frames from decoding into whatever they like. (A count that the bytes cannot hold is not refused
// up front: a run of idle short polling packs over a thousand events into a compressed byte. Items are decoded as
// the stream gives them, so a claimed count costs nothing until the bytes are there.)
void checkFrame(const std::vector<uint8_t>& compressed, const char* table)
{
    const bool ours = compressed.size() >= 5 && compressed[0] == 0x28 && compressed[1] == 0xb5 && compressed[2] == 0x2f
        && compressed[3] == 0xfd && (compressed[4] & 0x04) != 0;
    if (!ours)
        throw std::runtime_error(std::string("the ") + table + " table is not a checksummed zstd frame");
}

enum EventColumn { Causes, States, Times, Lanes, Actors, Details, Queues, EventColumns };
enum LaneColumn {
    Ids,
    BodyLengths,
    Bodies,
    SentAt,
    EnqueuedAt,
    DueAt,
    FirstReceiveAt,
    ReceivedAt,
    ReceiveCounts,
    LaneQueues,
    LaneStates,
    Extras,
    LaneColumns
};
} // namespace

void writeEvents(const EventLog& log, std::ostream& out)
{
    CompressedOut compressed(out);
    std::array<ColumnOut, EventColumns> columns;
    TimeMs time = 0;
    int64_t lane = 0; // the last lane named: lanes come near each other
    for (size_t i = 0; i < log.size();) {
        const size_t end = std::min(log.size(), i + kBlock);
        const size_t items = end - i;
        for (; i < end; ++i) {
            const Event& e = log[i];
            columns[Causes].put(uint8_t(e.cause));
            columns[States].put(uint8_t(uint8_t(e.from) << 4 | uint8_t(e.to)));
            columns[Times].putDifference(e.time, time);
            time = e.time;
            if (e.message == kNoMessage) {
                columns[Lanes].put(0);
            } else {
                columns[Lanes].put(zigzag(uint64_t(int64_t(e.message) - lane)) + 1);
                lane = e.message;
            }
            columns[Actors].put(e.actor);
            columns[Details].put(e.detail);
            columns[Queues].put(uint16_t(e.queue + 1)); // kNoQueue: 0
        }
        writeBlock(compressed, items, columns);
    }
    compressed.finish();
}

void readEvents(const std::vector<uint8_t>& compressed, size_t count, const std::function<void(const Event&)>& take)
{
    checkFrame(compressed, "events");
    CompressedIn in(compressed, "events");
    std::array<std::vector<uint8_t>, EventColumns> bytes;
    TimeMs time = 0;
    int64_t lane = 0;
    for (size_t done = 0; done < count;) {
        const size_t items = readBlock(in, count - done, 10, bytes);
        ColumnIn causes(bytes[Causes].data(), bytes[Causes].size(), "causes");
        ColumnIn states(bytes[States].data(), bytes[States].size(), "states");
        ColumnIn times(bytes[Times].data(), bytes[Times].size(), "times");
        ColumnIn lanes(bytes[Lanes].data(), bytes[Lanes].size(), "lanes");
        ColumnIn actors(bytes[Actors].data(), bytes[Actors].size(), "actors");
        ColumnIn details(bytes[Details].data(), bytes[Details].size(), "details");
        ColumnIn queues(bytes[Queues].data(), bytes[Queues].size(), "queues");
        for (size_t i = 0; i < items; ++i) {
            Event e {};
            e.cause = Cause(causes.get(0xff));
            const auto fromTo = uint8_t(states.get(0xff));
            e.from = MessageState(fromTo >> 4);
            e.to = MessageState(fromTo & 0xf);
            time = e.time = times.getDifference(time);
            if (const uint64_t v = lanes.get(); v == 0) {
                e.message = kNoMessage;
            } else {
                lane = int64_t(uint64_t(lane) + unzigzag(v - 1));
                if (lane < 0 || lane >= int64_t(kNoMessage))
                    throw std::runtime_error("event " + std::to_string(done + i) + " refers to a lane the file lacks");
                e.message = MessageIndex(lane);
            }
            e.actor = uint32_t(actors.get(UINT32_MAX));
            e.detail = uint32_t(details.get(UINT32_MAX));
            e.queue = QueueIndex(queues.get(0xffff) - 1);
            take(e);
        }
        for (const ColumnIn* column : { &causes, &states, &times, &lanes, &actors, &details, &queues })
            column->expectEnd();
        done += items;
    }
    in.expectEnd();
}

void writeLanes(const RunView& run, std::ostream& out)
{
    CompressedOut compressed(out);
    std::array<ColumnOut, LaneColumns> columns;
    TimeMs sentAt = 0;
    for (MessageIndex lane = 0; lane < run.messageCount();) {
        const MessageIndex end = MessageIndex(std::min<size_t>(run.messageCount(), lane + kBlock));
        const size_t items = end - lane;
        for (; lane < end; ++lane) {
            const MessageRecord& r = run.message(lane);
            const LaneTimes t = run.times(lane);
            const MessageIdParts parts = run.messageIdParts(lane);
            uint8_t id[16];
            for (int b = 0; b < 8; ++b) {
                id[b] = uint8_t(parts.hi >> (56 - 8 * b));
                id[8 + b] = uint8_t(parts.lo >> (56 - 8 * b));
            }
            columns[Ids].raw(id, sizeof id);
            columns[BodyLengths].put(r.body.size());
            columns[Bodies].raw(r.body.data(), r.body.size());
            columns[SentAt].putDifference(t.sentAt, sentAt);
            sentAt = t.sentAt;
            columns[EnqueuedAt].putDifference(t.enqueuedAt, t.sentAt);
            columns[DueAt].putDifference(t.dueAt, t.enqueuedAt);
            columns[FirstReceiveAt].putDifference(t.firstReceiveAt, t.sentAt);
            columns[ReceivedAt].putDifference(t.receivedAt, t.firstReceiveAt);
            columns[ReceiveCounts].put(r.receiveCount);
            columns[LaneQueues].put(r.queue);
            columns[LaneStates].put(uint8_t(r.state));
            columns[Extras].put(uint32_t(r.extra + 1)); // none: 0
        }
        writeBlock(compressed, items, columns);
    }
    compressed.finish();
}

void readLanes(const std::vector<uint8_t>& compressed, size_t count,
    const std::function<void(MessageRecord&&, const LaneTimes&, MessageIdParts)>& take)
{
    checkFrame(compressed, "lanes");
    CompressedIn in(compressed, "lanes");
    std::array<std::vector<uint8_t>, LaneColumns> bytes;
    TimeMs sentAt = 0;
    for (size_t done = 0; done < count;) {
        // A body may be up to 1 MiB (SQS's largest message), so the bodies' column is bounded by that a lane.
        const size_t items = readBlock(in, count - done, size_t(1) << 20, bytes);
        std::array<ColumnIn, LaneColumns> columns {
            ColumnIn { bytes[Ids].data(), bytes[Ids].size(), "ids" },
            ColumnIn { bytes[BodyLengths].data(), bytes[BodyLengths].size(), "body lengths" },
            ColumnIn { bytes[Bodies].data(), bytes[Bodies].size(), "bodies" },
            ColumnIn { bytes[SentAt].data(), bytes[SentAt].size(), "sent" },
            ColumnIn { bytes[EnqueuedAt].data(), bytes[EnqueuedAt].size(), "enqueued" },
            ColumnIn { bytes[DueAt].data(), bytes[DueAt].size(), "due" },
            ColumnIn { bytes[FirstReceiveAt].data(), bytes[FirstReceiveAt].size(), "first receive" },
            ColumnIn { bytes[ReceivedAt].data(), bytes[ReceivedAt].size(), "received" },
            ColumnIn { bytes[ReceiveCounts].data(), bytes[ReceiveCounts].size(), "receive counts" },
            ColumnIn { bytes[LaneQueues].data(), bytes[LaneQueues].size(), "lane queues" },
            ColumnIn { bytes[LaneStates].data(), bytes[LaneStates].size(), "lane states" },
            ColumnIn { bytes[Extras].data(), bytes[Extras].size(), "extras" },
        };
        for (size_t i = 0; i < items; ++i) {
            MessageRecord r;
            LaneTimes t;
            MessageIdParts parts;
            const uint8_t* id = columns[Ids].raw(16);
            for (int b = 0; b < 8; ++b) {
                parts.hi = parts.hi << 8 | id[b];
                parts.lo = parts.lo << 8 | id[8 + b];
            }
            const auto length = size_t(columns[BodyLengths].get(size_t(1) << 20));
            const uint8_t* body = columns[Bodies].raw(length);
            r.body.assign(std::string_view(reinterpret_cast<const char*>(body), length));
            sentAt = t.sentAt = columns[SentAt].getDifference(sentAt);
            t.enqueuedAt = columns[EnqueuedAt].getDifference(t.sentAt);
            t.dueAt = columns[DueAt].getDifference(t.enqueuedAt);
            t.firstReceiveAt = columns[FirstReceiveAt].getDifference(t.sentAt);
            t.receivedAt = columns[ReceivedAt].getDifference(t.firstReceiveAt);
            r.receiveCount = uint32_t(columns[ReceiveCounts].get(UINT32_MAX));
            r.queue = QueueIndex(columns[LaneQueues].get(0xffff));
            r.state = MessageState(columns[LaneStates].get(0xff));
            r.extra = uint32_t(columns[Extras].get(UINT32_MAX)) - 1;
            take(std::move(r), t, parts);
        }
        for (const ColumnIn& column : columns)
            column.expectEnd();
        done += items;
    }
    in.expectEnd();
}

} // namespace lifeline::run_columns
