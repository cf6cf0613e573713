#include "demo.h"

#include "lifeline/engine/engine.h"
#include "lifeline/run/event_text.h"

#include <iomanip>
#include <ostream>

namespace lifeline::app {

void runDemo(Engine& engine)
{
    // A fixed script on a fresh engine: every call succeeds, and the printed log shows it.
    (void)engine.createQueue("orders", { { "VisibilityTimeout", "30" } });
    SendMessageRequest send;
    send.queue = "orders";
    send.body = "order #1";
    (void)engine.sendMessage(send);
    engine.advanceBy(2000);
    ReceiveMessageRequest receive;
    receive.queue = "orders";
    receive.actor = kFirstActor;
    (void)engine.receiveMessage(receive); // the first consumer crashes while holding it: no delete
    engine.advanceBy(31000);
    receive.actor = kFirstActor + 1;
    const auto again = engine.receiveMessage(receive);
    engine.advanceBy(5000);
    if (again.ok() && !again->messages.empty())
        (void)engine.deleteMessage("orders", again->messages.front().receiptHandle, kFirstActor + 1);
    engine.advanceBy(1000);
}

void printLog(const Engine& engine, std::ostream& out)
{
    const auto& log = engine.log();
    for (size_t i = 0; i < log.size(); ++i) {
        const Event& e = log[i];
        out << std::setw(8) << std::fixed << std::setprecision(3) << double(e.time) / 1000.0 << "s  ";
        out << std::setw(10) << std::left << (e.queue == kNoQueue ? "-" : engine.queueInfo(e.queue).name) << std::right;
        out << "  " << std::setw(22) << std::left << toString(e.cause) << std::right;
        if (e.message != kNoMessage)
            out << "  " << engine.messageId(e.message).substr(0, 8) << "  " << toString(e.from) << " -> "
                << toString(e.to);
        out << "  by " << engine.run().actorName(e.actor);
        if (e.cause == Cause::Receive)
            out << "  (receive #" << e.receiveNumber() << ")";
        out << '\n';
    }
}

} // namespace lifeline::app
