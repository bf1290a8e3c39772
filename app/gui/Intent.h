#pragma once

#include <QString>
#include <QStringList>
#include <variant>

namespace sandbox::gui {

/// A run of the journal, whole, in History.
struct ShowRun
{
    QString runId;
};

/// A run as the live log follows it (one in progress: its output as it comes).
struct FollowRun
{
    QString runId;
};

/// Code to edit and run again, in the Console.
struct OpenInConsole
{
    QString language;
    QString code;
    QStringList libraries;
};

/// A backend's connection, images and sandboxes, on the Backends page.
struct ShowBackend
{
    QString backend;
};

/// Files and folders dropped on a page to share with the Console's next run (ConsolePage::shareForNextRun).
struct ShareForNextRun
{
    QStringList paths;
};

/// Where a page asks the window to go (Page::navigate): the window offers it to its pages (Page::open) and shows
/// the one that takes it. No page knows another page's type.
using Intent = std::variant<ShowRun, FollowRun, OpenInConsole, ShowBackend, ShareForNextRun>;

} // namespace sandbox::gui
