#include "lifeline/teach/drill.h"

#include "lifeline/sim/random.h"

#include <algorithm>

namespace lifeline::teach {

namespace {
template <typename T> void shuffle(std::vector<T>& items, sim::Random& random)
{
    // Fisher-Yates with the project's own generator: a seed draws the same drill with any standard library.
    for (size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[size_t(random.next() % i)]);
}
} // namespace

std::vector<DrillQuestion> drawDrill(size_t count, uint64_t seed)
{
    sim::Random random(seed);
    std::vector<std::string> topics;
    std::map<std::string, std::vector<const Exercise*>> byTopic;
    for (const Exercise& exercise : practiceExercises()) {
        auto& list = byTopic[exercise.topic];
        if (list.empty())
            topics.push_back(exercise.topic);
        list.push_back(&exercise);
    }
    shuffle(topics, random);
    for (auto& [topic, list] : byTopic)
        shuffle(list, random);
    std::vector<const Exercise*> drill;
    for (size_t round = 0; drill.size() < count; ++round) {
        bool any = false;
        for (const std::string& topic : topics) {
            const auto& list = byTopic[topic];
            if (round < list.size() && drill.size() < count) {
                drill.push_back(list[round]);
                any = true;
            }
        }
        if (!any)
            break; // every exercise drawn
    }
    // The choices shuffled after the draw, from the same generator: the drill's questions stay what they were for a
    // seed, and the seed gives their order too.
    std::vector<DrillQuestion> questions;
    questions.reserve(drill.size());
    for (const Exercise* exercise : drill) {
        DrillQuestion& question = questions.emplace_back();
        question.exercise = exercise;
        for (const PracticeChoice& choice : exercise->choices)
            question.choices.push_back(&choice);
        shuffle(question.choices, random);
    }
    return questions;
}

std::string drillLetter(size_t position)
{
    return std::string(1, char('A' + position % 26));
}

std::vector<std::pair<std::string, TopicScore>> scoreByTopic(const std::vector<DrillAnswer>& answers)
{
    std::vector<std::pair<std::string, TopicScore>> scores;
    for (const DrillAnswer& a : answers) {
        auto it = std::find_if(
            scores.begin(), scores.end(), [&](const auto& score) { return score.first == a.exercise->topic; });
        if (it == scores.end())
            it = scores.insert(scores.end(), { a.exercise->topic, TopicScore {} });
        TopicScore& score = it->second;
        ++score.asked;
        score.passed += a.passed ? 1 : 0;
        if (!a.passed
            && std::find(score.review.begin(), score.review.end(), a.exercise->practises) == score.review.end())
            score.review.push_back(a.exercise->practises);
    }
    return scores;
}

} // namespace lifeline::teach
