//! Mooring server: MCP endpoint, REST API and pages (grows with issue 3).
