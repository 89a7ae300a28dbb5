//! The real server stack with the MCP conformance suite's fixtures, for
//! `tests/e2e/conformance.sh` only: `conformance-server DATA_DIR` prints
//! `{"url": …}` once listening and serves until killed. The fixtures are served by a
//! handler that wraps the product's own and hands every other request to it, so the
//! product's handler holds nothing of the suite.

// Roots, logging and legacy subscriptions are deprecated from MCP 2026-07-28; the suite
// still exercises them, and the wrapper hands them on.
#![allow(deprecated)]

mod fixtures;

use std::sync::Arc;

use mooring_core::Store;
use mooring_server::mcp::MooringMcp;
use mooring_server::{Headless, ServerConfig, start_serving};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, GetPromptRequestParams,
    GetPromptResponse, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerConfig as Info,
    SetLevelRequestParams, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};

/// The product's handler with the suite's tools, resources and prompts beside its own.
#[derive(Clone)]
struct WithFixtures(MooringMcp);

impl ServerHandler for WithFixtures {
    fn get_info(&self) -> Info {
        ServerHandler::get_info(&self.0)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut list = self.0.list_tools(request, ctx).await?;
        list.tools.extend(fixtures::tools());
        Ok(list)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.0.get_tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        match fixtures::call(&request.name, &args, &ctx).await {
            Some(r) => Ok(r.into()),
            None => self.0.call_tool(request, ctx).await,
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.0.set_level(request, ctx).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut list = self.0.list_resources(request, ctx).await?;
        list.resources.extend(fixtures::resources());
        Ok(list)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let mut list = self.0.list_resource_templates(request, ctx).await?;
        list.resource_templates.extend(fixtures::templates());
        Ok(list)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match fixtures::read(&request.uri) {
            Some(r) => Ok(r.into()),
            None => self.0.read_resource(request, ctx).await,
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if fixtures::is_resource(&request.uri) {
            return Ok(());
        }
        self.0.subscribe(request, ctx).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if fixtures::is_resource(&request.uri) {
            return Ok(());
        }
        self.0.unsubscribe(request, ctx).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut list = self.0.list_prompts(request, ctx).await?;
        list.prompts.extend(fixtures::prompts());
        Ok(list)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        match fixtures::prompt(&request.name, &request.arguments.clone().unwrap_or_default()) {
            Some(p) => Ok(p.into()),
            None => self.0.get_prompt(request, ctx).await,
        }
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.0.complete(request, ctx).await
    }

    async fn on_initialized(&self, ctx: NotificationContext<RoleServer>) {
        self.0.on_initialized(ctx).await
    }

    async fn on_roots_list_changed(&self, ctx: NotificationContext<RoleServer>) {
        self.0.on_roots_list_changed(ctx).await
    }
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let data_dir = std::env::args().nth(1).ok_or("usage: conformance-server DATA_DIR")?;
    let mut config = ServerConfig::new(data_dir);
    config.port = 0;
    let store = Store::open_in(&config.data_dir).map_err(|e| e.message)?;
    let server = start_serving(config, Arc::new(store), Arc::new(Headless), WithFixtures)
        .await
        .map_err(|e| e.to_string())?;
    println!("{}", serde_json::json!({ "url": server.url }));
    let _ = tokio::signal::ctrl_c().await;
    server.shutdown().await;
    Ok(())
}
