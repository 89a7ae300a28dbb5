//! The MCP server handler: a hand-written `ServerHandler` that reads the caller, parses
//! arguments, gates project-scoped tools and delegates to small tool functions.

// Roots and logging are deprecated from MCP 2026-07-28, and 2025-era clients still use them.
#![allow(deprecated)]

mod ask;
pub mod catalog;
#[cfg(feature = "conformance-fixtures")]
mod fixtures;
pub mod gate;
pub mod outputs;
pub mod params;
pub mod resources;
pub mod results;
mod roots;
mod selection;
mod tools_choice;
mod tools_handover;
mod tools_memory;
mod tools_projects;
mod tools_session;

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, SetLevelRequestParams, SubscribeRequestParams, Tool,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde::de::DeserializeOwned;

use crate::caller::Caller;
use crate::state::{AppState, LocalContext};
use gate::Gate;
use tools_memory::Scope;

/// Tools whose success changes a project's resources.
const WRITES: &[&str] = &["save_handover", "remember", "resolve_blocker", "forget", "lock_context"];

/// One handler value per legacy session or per stateless request; it holds only the
/// shared state, never per-agent facts.
#[derive(Clone)]
pub struct MooringMcp {
    state: Arc<AppState>,
    /// The hints of the one client on this connection (stdio, a shim's socket).
    local: Option<Arc<LocalContext>>,
}

impl MooringMcp {
    /// A handler over shared state.
    pub fn new(state: Arc<AppState>) -> Self {
        let local = state.local.clone();
        Self { state, local }
    }

    /// A handler for one connection whose client is known by `local`.
    pub fn for_connection(state: Arc<AppState>, local: Arc<LocalContext>) -> Self {
        Self { state, local: Some(local) }
    }
}

fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!("no resource '{uri}'; resources/list shows what Mooring serves"),
        Some(serde_json::json!({ "uri": uri })),
    )
}

/// Parse arguments into a tool's parameter type, or the `isError` result explaining why not.
fn parse<P: DeserializeOwned>(
    tool: &str,
    request: &CallToolRequestParams,
) -> Result<P, Box<CallToolResponse>> {
    let args = serde_json::Value::Object(request.arguments.clone().unwrap_or_default());
    serde_path_to_error::deserialize(args).map_err(|e| {
        let path = e.path().to_string();
        let field = (path != ".").then_some(path);
        Box::new(results::bad_arguments(tool, field.as_deref(), &e.inner().to_string()).into())
    })
}

impl ServerHandler for MooringMcp {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .enable_completions()
            .enable_prompts()
            .enable_resources()
            .enable_resources_subscribe()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("mooring", env!("CARGO_PKG_VERSION")).with_title("Mooring"))
            .with_instructions(catalog::INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        #[allow(unused_mut)]
        let mut tools = catalog::tools().to_vec();
        #[cfg(feature = "conformance-fixtures")]
        if self.state.conformance_fixtures {
            tools.extend(fixtures::tools());
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        catalog::tools().iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let state = &self.state;
        let caller = Caller::from_ctx(&ctx, self.local.as_deref());
        let name = request.name.to_string();
        macro_rules! args {
            ($ty:ty) => {
                match parse::<$ty>(&name, &request) {
                    Ok(p) => p,
                    Err(response) => return Ok(*response),
                }
            };
        }
        // Parse, decide the project (asking when needed), then run in it.
        macro_rules! scoped {
            ($ty:ty, $run:path) => {{
                let p = args!($ty);
                let explicit = p.project.clone();
                match self.gate(&caller, &ctx, explicit.as_deref(), &request).await? {
                    Gate::Ready { project, decided_by, note } => {
                        let slug = project.clone();
                        let session = caller.session_id.clone();
                        let result = $run(state, Scope { project, decided_by, note, session }, p);
                        if result.is_error != Some(true) && WRITES.contains(&name.as_str()) {
                            state.project_changed(&slug);
                        }
                        result
                    }
                    Gate::Stop(response) => return Ok(response),
                }
            }};
        }
        let result = match name.as_str() {
            "list_projects" => tools_projects::list(state, args!(params::ListProjects)),
            "get_project" => tools_projects::get(state, args!(params::GetProject)),
            "create_project" => tools_projects::create(state, args!(params::CreateProject)),
            "edit_project" => tools_projects::edit(state, args!(params::EditProject)),
            "active_project" => tools_session::active(state, &caller, args!(params::ActiveProject)).await,
            "resolve_project" => {
                roots::refresh(&self.state, &caller, &ctx).await;
                tools_session::resolve(state, &caller, args!(params::ResolveProject)).await
            }
            "select_project_for_session" => {
                tools_session::select(state, &caller, args!(params::SelectProject))
            }
            "set_workspace_id" => {
                roots::refresh(&self.state, &caller, &ctx).await;
                tools_session::set_workspace(state, &caller, args!(params::SetWorkspace))
            }
            "save_handover" => scoped!(params::SaveHandover, tools_handover::save),
            "get_last_handover" => scoped!(params::GetLastHandover, tools_handover::last),
            "remember" => scoped!(params::Remember, tools_memory::remember),
            "list_memory" => scoped!(params::ListMemory, tools_memory::list),
            "resolve_blocker" => scoped!(params::ResolveBlocker, tools_memory::resolve_blocker),
            "forget" => scoped!(params::Forget, tools_memory::forget),
            "lock_context" => scoped!(params::LockContext, tools_memory::lock),
            "recall_context" => scoped!(params::RecallContext, tools_memory::recall),
            "project_context" => scoped!(params::ProjectContext, tools_memory::context),
            "provide_choice" => {
                let args = request.arguments.clone().unwrap_or_default();
                let p = match tools_choice::ProvideChoice::parse(&args) {
                    Ok(p) => p,
                    Err((field, why)) => {
                        return Ok(results::bad_arguments(&name, field.as_deref(), &why).into());
                    }
                };
                let responses = request.input_responses.as_ref();
                let request_state = request.request_state.as_deref();
                let answer = tools_choice::run(state, &caller, &ctx, p, responses, request_state).await;
                return Ok(answer.unwrap_or_else(|e| results::fail(&e).into()));
            }
            "search_memory" => {
                let p = args!(params::SearchMemory);
                if p.all_projects {
                    tools_memory::search_all(state, &p)
                } else {
                    let explicit = p.project.clone();
                    match self.gate(&caller, &ctx, explicit.as_deref(), &request).await? {
                        Gate::Ready { project, decided_by, note } => tools_memory::search_one(
                            state,
                            Scope { project, decided_by, note, session: caller.session_id.clone() },
                            p,
                        ),
                        Gate::Stop(response) => return Ok(response),
                    }
                }
            }
            #[cfg(feature = "conformance-fixtures")]
            other
                if self.state.conformance_fixtures
                    && let Some(r) =
                        fixtures::call(other, &request.arguments.clone().unwrap_or_default(), &ctx).await =>
            {
                r
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool '{other}'; tools/list shows the tools Mooring has"),
                    None,
                ));
            }
        };
        Ok(result.into())
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // Mooring sends no log notifications of its own; accepting the level keeps
        // 2025-era clients that set one working.
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        #[allow(unused_mut)]
        let mut list = resources::list(&self.state)?;
        #[cfg(feature = "conformance-fixtures")]
        if self.state.conformance_fixtures {
            list.extend(fixtures::resources());
        }
        Ok(ListResourcesResult::with_all_items(list))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        #[allow(unused_mut)]
        let mut list = resources::templates();
        #[cfg(feature = "conformance-fixtures")]
        if self.state.conformance_fixtures {
            list.extend(fixtures::templates());
        }
        Ok(ListResourceTemplatesResult::with_all_items(list))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if let Some(r) = resources::read(&self.state, &request.uri)? {
            return Ok(r.into());
        }
        #[cfg(feature = "conformance-fixtures")]
        if let Some(r) = self.state.conformance_fixtures.then(|| fixtures::read(&request.uri)).flatten() {
            return Ok(r.into());
        }
        Err(not_found(&request.uri))
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if resources::is_ours(&request.uri) {
            if let Some(session) = Caller::from_ctx(&ctx, self.local.as_deref()).session_id {
                self.state.subscribe(session, request.uri.clone(), ctx.peer.clone());
            }
            return Ok(());
        }
        if self.fixture_resource(&request.uri) {
            return Ok(());
        }
        Err(not_found(&request.uri))
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Some(session) = Caller::from_ctx(&ctx, self.local.as_deref()).session_id {
            self.state.unsubscribe(&session, &request.uri);
        }
        if resources::is_ours(&request.uri) || self.fixture_resource(&request.uri) {
            return Ok(());
        }
        Err(not_found(&request.uri))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        #[allow(unused_mut)]
        let mut list = resources::prompts();
        #[cfg(feature = "conformance-fixtures")]
        if self.state.conformance_fixtures {
            list.extend(fixtures::prompts());
        }
        Ok(ListPromptsResult::with_all_items(list))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        if let Some(p) = resources::prompt(&self.state, &request.name, &args)? {
            return Ok(p.into());
        }
        #[cfg(feature = "conformance-fixtures")]
        if let Some(p) =
            self.state.conformance_fixtures.then(|| fixtures::prompt(&request.name, &args)).flatten()
        {
            return Ok(p.into());
        }
        Err(ErrorData::invalid_params(
            format!("unknown prompt '{}'; prompts/list shows the prompts Mooring has", request.name),
            None,
        ))
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        resources::complete(&self.state, &request)
    }

    async fn on_initialized(&self, ctx: NotificationContext<RoleServer>) {
        roots::after_initialize(&self.state, self.local.as_deref(), &ctx);
    }

    async fn on_roots_list_changed(&self, ctx: NotificationContext<RoleServer>) {
        roots::changed(&self.state, self.local.as_deref(), &ctx);
    }
}

impl MooringMcp {
    /// Whether `uri` is one of the conformance suite's fixture resources (test builds only).
    fn fixture_resource(&self, _uri: &str) -> bool {
        #[cfg(feature = "conformance-fixtures")]
        if self.state.conformance_fixtures {
            return fixtures::is_resource(_uri);
        }
        false
    }

    async fn gate(
        &self,
        caller: &Caller,
        ctx: &RequestContext<RoleServer>,
        explicit: Option<&str>,
        request: &CallToolRequestParams,
    ) -> Result<Gate, ErrorData> {
        roots::refresh(&self.state, caller, ctx).await;
        let (responses, request_state) = (request.input_responses.as_ref(), request.request_state.as_deref());
        match gate::require_project(&self.state, caller, ctx, explicit, responses, request_state).await {
            Ok(g) => Ok(g),
            Err(e) => Ok(Gate::Stop(results::fail(&e).into())),
        }
    }
}
