// A scenario travels in signals (PracticeDialog::showRun, CheckDialog::showScenario); a signal spy stores it.
#pragma once

#include "lifeline/scenario/scenario.h"

#include <QMetaType>

Q_DECLARE_METATYPE(lifeline::scenario::Scenario)
