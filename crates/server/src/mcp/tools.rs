//! Every tool, declared once: its name, what the model is told, its input and output
//! types (the schemas come from them), its hints, whether it needs the session's project,
//! whether it writes, what a client that renders MCP Apps sees differently, and what runs
//! it. Both catalogs (`tools/list` with and without apps), the dispatch, the set of
//! writing tools and the set of project-scoped tools all read this table, so adding or
//! renaming a tool is one entry here.

use std::future::Future;
use std::pin::Pin;

use mooring_core::Changed;
use mooring_core::memory::Page;
use rmcp::ErrorData;
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, Tool};
use rmcp::service::{RequestContext, RoleServer};
use serde::de::DeserializeOwned;

use super::gate::Gate;
use super::schema::{READ, SET, ToolHints, WRITE, app_tool, tool};
use super::tools_memory::Scope;
use super::{
    MooringMcp, outputs, params, results, roots, tools_app, tools_choice, tools_claims, tools_handover,
    tools_memory, tools_projects, tools_session,
};
use crate::caller::Caller;
use crate::resource_uris;
use crate::state::AppState;

/// Whether a tool needs the session's project before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// It runs without one.
    Nothing,
    /// It runs in the session's project (asking for one when nothing decides).
    Project,
    /// In the session's project, unless asked for all projects.
    ProjectUnlessAll,
}

/// What a client that renders MCP Apps (the `io.modelcontextprotocol/ui` extension) sees
/// differently of a tool; other clients never see an apps-only tool.
pub struct ForApps {
    /// The app drawn for the tool's calls (`_meta.ui.resourceUri`).
    pub ui: Option<&'static str>,
    /// Only an app calls it: absent from other clients' lists, hidden from the model.
    pub only: bool,
    /// Its description for such a client, when it differs.
    pub description: Option<&'static str>,
    /// Every argument optional there (the app asks the person for what is left out).
    pub all_optional: bool,
}

impl ForApps {
    /// Nothing differs.
    pub const SAME: ForApps = ForApps { ui: None, only: false, description: None, all_optional: false };
    /// A tool only the apps call.
    pub const ONLY: ForApps = ForApps { ui: None, only: true, description: None, all_optional: false };
}

/// What a tool's runner answers: a response, or a protocol error.
pub type Reply<'a> = Pin<Box<dyn Future<Output = Result<CallToolResponse, Stop>> + Send + 'a>>;

/// One tool.
pub struct ToolDef {
    /// Its name.
    pub name: &'static str,
    /// What the model is told about it.
    pub description: &'static str,
    /// Its annotations.
    pub hints: ToolHints,
    /// Whether it needs the session's project.
    pub project: Needs,
    /// Whether its success changes the project's resources (subscribers are told).
    pub writes: bool,
    /// What a client that renders apps sees differently.
    pub apps: ForApps,
    /// Its definition as clients receive it.
    pub schema: fn(&'static str, &'static str, &ToolHints) -> Tool,
    /// What runs a call of it.
    pub run: for<'a> fn(&'a Call<'a>) -> Reply<'a>,
}

/// Why a call ends before its tool answers: an answer the agent reads (bad arguments,
/// no project yet), or an error at the protocol level.
pub enum Stop {
    /// An `isError` result, or a question for the person (MRTR).
    Answer(Box<CallToolResponse>),
    /// A JSON-RPC error.
    Protocol(ErrorData),
}

impl From<ErrorData> for Stop {
    fn from(e: ErrorData) -> Self {
        Stop::Protocol(e)
    }
}

/// A call in flight: what a tool's runner may need.
pub struct Call<'a> {
    /// The handler.
    pub mcp: &'a MooringMcp,
    /// Who calls.
    pub caller: &'a Caller,
    /// The request's context (the peer, for questions).
    pub ctx: &'a RequestContext<RoleServer>,
    /// The request.
    pub request: &'a CallToolRequestParams,
    /// The tool called.
    pub def: &'static ToolDef,
}

/// A parameter type with the optional `project` every project-scoped tool takes.
pub trait ProjectArg {
    /// The `project` argument, if given.
    fn project(&self) -> Option<&str>;
}

macro_rules! project_arg {
    ($($ty:ty),*) => {$(
        impl ProjectArg for $ty {
            fn project(&self) -> Option<&str> {
                self.project.as_deref()
            }
        }
    )*};
}
project_arg!(
    params::SaveHandover,
    params::GetLastHandover,
    params::Remember,
    params::ListMemory,
    params::ResolveBlocker,
    params::Forget,
    params::SearchMemory,
    params::LockContext,
    params::RecallContext,
    params::ProjectContext,
    params::WhoIsWorking,
    params::Claim,
    params::TellSession
);

impl Call<'_> {
    /// The shared state.
    pub fn state(&self) -> &AppState {
        &self.mcp.state
    }

    /// The shared state, for work that outlives the call's borrow (a blocking read).
    pub fn shared(&self) -> &std::sync::Arc<AppState> {
        &self.mcp.state
    }

    /// The arguments as the tool's parameter type, or the `isError` result saying which
    /// field is wrong.
    pub fn args<P: DeserializeOwned>(&self) -> Result<P, Stop> {
        super::parse(self.def.name, self.request).map_err(Stop::Answer)
    }

    /// A tool that needs nothing of the session.
    fn plain<P: DeserializeOwned>(
        &self,
        run: fn(&AppState, P) -> CallToolResult,
    ) -> Result<CallToolResponse, Stop> {
        Ok(run(self.state(), self.args()?).into())
    }

    /// The session's project for this call (asking for one when nothing decides).
    pub async fn gate(&self, explicit: Option<&str>) -> Result<Scope, Stop> {
        match self.mcp.gate(self.caller, self.ctx, explicit, self.request).await? {
            Gate::Ready { project, decided_by, note } => {
                let (session, client) = (self.caller.session_id.clone(), self.caller.client_name.clone());
                let client_pid = self.caller.client_pid;
                Ok(Scope { project, decided_by, note, session, client, client_pid })
            }
            Gate::Stop(response) => Err(Stop::Answer(Box::new(response))),
        }
    }

    /// A project-scoped tool: parse, decide the project, run in it; a write that
    /// succeeded tells the project's subscribers.
    async fn scoped<P: DeserializeOwned + ProjectArg>(
        &self,
        run: fn(&AppState, Scope, P) -> CallToolResult,
    ) -> Result<CallToolResponse, Stop> {
        let p: P = self.args()?;
        let scope = self.gate(p.project()).await?;
        let slug = scope.project.clone();
        let result = run(self.state(), scope, p);
        if result.is_error != Some(true) && self.def.writes {
            self.state().project_changed(&slug);
        }
        Ok(result.into())
    }
}

/// A runner from a body over `c: &Call`.
macro_rules! runner {
    (|$c:ident| $body:expr) => {{
        fn run<'a>($c: &'a Call<'a>) -> Reply<'a> {
            Box::pin(async move { $body })
        }
        run
    }};
}

/// The tool called `name`.
pub fn find(name: &str) -> Option<&'static ToolDef> {
    TOOLS.iter().find(|t| t.name == name)
}

/// Every tool, in the order clients show them.
pub static TOOLS: &[ToolDef] = &[
    ToolDef {
        name: "list_projects",
        description: "List projects with their code paths and stats (decisions, open blockers, context locks, \
         memory, last used). By default active and paused ones; status=all includes archived.",
        hints: READ,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::ListProjects, outputs::ProjectList>,
        run: runner!(|c| c.plain(tools_projects::list)),
    },
    ToolDef {
        name: "get_project",
        description: "Get one project by slug: description, status, repository, notes and code paths, stats.",
        hints: READ,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::GetProject, outputs::ProjectDetail>,
        run: runner!(|c| c.plain(tools_projects::get)),
    },
    ToolDef {
        name: "create_project",
        description: "Create a project. Its code paths decide the project for sessions working inside them.",
        hints: WRITE,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::CreateProject, Changed>,
        run: runner!(|c| c.plain(tools_projects::create)),
    },
    ToolDef {
        name: "edit_project",
        description: "Edit a project. All changes land together or none do.",
        hints: WRITE,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::EditProject, Changed>,
        run: runner!(|c| c.plain(tools_projects::edit)),
    },
    ToolDef {
        name: "active_project",
        description: "The project this session works in. Omit `project` to read it, give a slug to choose it \
         for this session, or null to clear the choice. Shows every resolution level.",
        hints: SET,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::ActiveProject, outputs::ActiveProject>,
        run: runner!(|c| Ok(tools_session::active(c.shared(), c.caller, c.args()?).await.into())),
    },
    ToolDef {
        name: "resolve_project",
        description: "Explain how this session's project is decided: every level of the order, what it saw \
         and which one decided. `cwd` and `workspace_id` ask 'what if'.",
        hints: READ,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::ResolveProject, outputs::Resolved>,
        run: runner!(|c| {
            roots::refresh(c.state(), c.caller, c.ctx).await;
            Ok(tools_session::resolve(c.shared(), c.caller, c.args()?).await.into())
        }),
    },
    ToolDef {
        name: "select_project_for_session",
        description: "Choose the project this session works on. Returns the last handover for it, so the \
         session can pick up where the previous one stopped.",
        hints: SET,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps {
            ui: Some(resource_uris::PICKER_APP),
            description: Some(
                "Choose the project this session works on. Omit `project` to let the person pick it in the \
                 conversation. Returns the last handover for it, so the session can pick up where the \
                 previous one stopped.",
            ),
            all_optional: true,
            ..ForApps::SAME
        },
        schema: tool::<params::SelectProject, outputs::Selected>,
        run: runner!(|c| {
            // Without `project`, a client that renders apps lets the person pick it in
            // the conversation (the tool's app), or in the desktop's window.
            let named = c.request.arguments.as_ref().is_some_and(|a| a.contains_key("project"));
            if c.caller.apps && !named {
                return Ok(match tools_app::select_by_person(&c.mcp.state, c.caller, c.ctx).await {
                    Some(p) => {
                        let args = params::SelectProject { project: p.slug };
                        tools_session::select_as(c.state(), c.caller, args, p.via).into()
                    }
                    None => results::error_result(
                        "PROJECT_SELECTION_PENDING",
                        "The person has not picked a project yet. The picker stays in the conversation; \
                         call select_project_for_session again once they have, or ask them which project.",
                        Some("project"),
                        None,
                    )
                    .into(),
                });
            }
            Ok(tools_session::select(c.state(), c.caller, c.args()?).into())
        }),
    },
    ToolDef {
        name: "set_workspace_id",
        description: "Declare this session's workspace directory as a file:// URI. It must exist; when the \
         client declared roots, it must lie within one of them.",
        hints: SET,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::SetWorkspace, outputs::WorkspaceSet>,
        run: runner!(|c| {
            roots::refresh(c.state(), c.caller, c.ctx).await;
            Ok(tools_session::set_workspace(c.state(), c.caller, c.args()?).into())
        }),
    },
    ToolDef {
        name: "save_handover",
        description: "Save a handover for the next session: what was done, the next steps, open questions \
         and the files that matter. Secrets are stored redacted and <private>…</private> \
         not at all.",
        hints: WRITE,
        project: Needs::Project,
        writes: true,
        apps: ForApps::SAME,
        schema: tool::<params::SaveHandover, outputs::HandoverSaved>,
        run: runner!(|c| c.scoped(tools_handover::save).await),
    },
    ToolDef {
        name: "get_last_handover",
        description: "Get the newest handover of the session's project (or `project`): where the previous \
         session stopped and what it said to do next.",
        hints: READ,
        project: Needs::Project,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::GetLastHandover, outputs::LastHandover>,
        run: runner!(|c| c.scoped(tools_handover::last).await),
    },
    ToolDef {
        name: "remember",
        description: "Record a decision, blocker, summary or note in the project's memory. Blockers stay open \
         until resolve_blocker. One fact per entry. Secrets are stored redacted and \
         <private>…</private> not at all. The result names likely duplicates and contradictions.",
        hints: WRITE,
        project: Needs::Project,
        writes: true,
        apps: ForApps::SAME,
        schema: tool::<params::Remember, outputs::Scoped<mooring_core::search::similar::Remembered>>,
        run: runner!(|c| c.scoped(tools_memory::remember).await),
    },
    ToolDef {
        name: "list_memory",
        description: "List the project's memory, newest first, optionally by kind and status, a page at a time.",
        hints: READ,
        project: Needs::Project,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::ListMemory, outputs::Scoped<Page>>,
        run: runner!(|c| c.scoped(tools_memory::list).await),
    },
    ToolDef {
        name: "resolve_blocker",
        description: "Mark an open blocker resolved, with how it was resolved.",
        hints: SET,
        project: Needs::Project,
        writes: true,
        apps: ForApps::SAME,
        schema: tool::<params::ResolveBlocker, outputs::Scoped<outputs::EntryResult>>,
        run: runner!(|c| c.scoped(tools_memory::resolve_blocker).await),
    },
    ToolDef {
        name: "forget",
        description: "Hide a memory entry from lists, search and the preamble; the audit log keeps that it \
         existed.",
        hints: ToolHints { read_only: false, destructive: true, idempotent: false },
        project: Needs::Project,
        writes: true,
        apps: ForApps::SAME,
        schema: tool::<params::Forget, outputs::Scoped<outputs::EntryResult>>,
        run: runner!(|c| c.scoped(tools_memory::forget).await),
    },
    ToolDef {
        name: "search_memory",
        description: "Search memory by words and meaning, ranked, with snippets; all_projects=true searches \
         every project.",
        hints: READ,
        project: Needs::ProjectUnlessAll,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::SearchMemory, outputs::SearchResults>,
        run: runner!(|c| {
            let p: params::SearchMemory = c.args()?;
            if p.all_projects {
                return Ok(tools_memory::search_all(c.state(), &p).into());
            }
            let scope = c.gate(p.project.as_deref()).await?;
            Ok(tools_memory::search_one(c.state(), scope, p).into())
        }),
    },
    ToolDef {
        name: "lock_context",
        description: "Lock the agreed text of a topic (an API contract, a naming rule). Locking again adds \
         a new version; earlier versions stay readable. Secrets are stored redacted.",
        hints: WRITE,
        project: Needs::Project,
        writes: true,
        apps: ForApps::SAME,
        schema: tool::<params::LockContext, outputs::Scoped<outputs::Locked>>,
        run: runner!(|c| c.scoped(tools_memory::lock).await),
    },
    ToolDef {
        name: "recall_context",
        description: "Read a locked topic (latest or a given version), or without a topic list the topics \
         with their latest version and age.",
        hints: READ,
        project: Needs::Project,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::RecallContext, outputs::Scoped<outputs::Recalled>>,
        run: runner!(|c| c.scoped(tools_memory::recall).await),
    },
    ToolDef {
        name: "provide_choice",
        description: "Ask the person a structured question and get a normalized answer. Ask (instead of \
         guessing) when there are more than two viable paths, before a destructive action, or \
         when configuration is missing. `prompt` must carry the task context and why the \
         choice is needed; mark the option you would pick as recommended. The person may \
         cancel. If the result is `pending` or `pending_terminal_launch`, call again with \
         {\"session_id\": …} for the answer.",
        hints: ToolHints { read_only: false, destructive: false, idempotent: false },
        project: Needs::Nothing,
        writes: false,
        apps: ForApps { ui: Some(resource_uris::CHOICE_APP), ..ForApps::SAME },
        schema: tool::<tools_choice::ProvideChoice, mooring_core::choice::ChoiceResponse>,
        run: runner!(|c| {
            let args = c.request.arguments.clone().unwrap_or_default();
            let p = match tools_choice::ProvideChoice::parse(&args) {
                Ok(p) => p,
                Err((field, why)) => {
                    return Ok(results::bad_arguments(c.def.name, field.as_deref(), &why).into());
                }
            };
            let (responses, request_state) =
                (c.request.input_responses.as_ref(), c.request.request_state.as_deref());
            let answer = tools_choice::run(c.shared(), c.caller, c.ctx, p, responses, request_state).await;
            Ok(answer.unwrap_or_else(|e| results::fail(&e).into()))
        }),
    },
    ToolDef {
        name: "who_is_working",
        description: "Agent sessions working in the project now: checkout, branch, request, files held.",
        hints: READ,
        project: Needs::Project,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::WhoIsWorking, outputs::Scoped<outputs::Working>>,
        run: runner!(|c| c.scoped(tools_session::who_is_working).await),
    },
    ToolDef {
        name: "claim",
        description: "Claim a file, folder, glob or task in this checkout: other live sessions' edits \
         there are checked. Edited files are claimed already.",
        hints: ToolHints { read_only: false, destructive: false, idempotent: true },
        project: Needs::Project,
        writes: true,
        apps: ForApps::SAME,
        schema: tool::<params::Claim, outputs::Scoped<outputs::Claimed>>,
        run: runner!(|c| c.scoped(tools_claims::claim).await),
    },
    ToolDef {
        name: "tell_session",
        description: "Leave a note for a live session (handle from who_is_working), given at its next prompt.",
        hints: ToolHints { read_only: false, destructive: false, idempotent: false },
        project: Needs::Project,
        writes: true,
        apps: ForApps::SAME,
        schema: tool::<params::TellSession, outputs::Scoped<outputs::Told>>,
        run: runner!(|c| c.scoped(tools_claims::tell).await),
    },
    ToolDef {
        name: "project_context",
        description: "The project's context preamble (description, open blockers, recent decisions, last \
         handover, lock topics, other projects) within a token budget (default 4000).",
        hints: READ,
        project: Needs::Project,
        writes: false,
        apps: ForApps::SAME,
        schema: tool::<params::ProjectContext, outputs::Scoped<outputs::Context>>,
        run: runner!(|c| c.scoped(tools_memory::context).await),
    },
    ToolDef {
        name: tools_app::ANSWER,
        description: "For Mooring's question app: read a waiting question asked in this conversation, then \
         answer it with the person's choice.",
        hints: WRITE,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::ONLY,
        schema: app_tool::<tools_app::AnswerQuestion>,
        run: runner!(|c| Ok(tools_app::answer(c.state(), c.caller, c.args()?).into())),
    },
    ToolDef {
        name: tools_app::PICK,
        description: "For Mooring's project picker app: read the pick waiting in this conversation, then \
         answer it with the project the person clicked.",
        hints: WRITE,
        project: Needs::Nothing,
        writes: false,
        apps: ForApps::ONLY,
        schema: app_tool::<tools_app::PickProject>,
        run: runner!(|c| Ok(tools_app::pick(c.state(), c.caller, c.args()?).into())),
    },
];
