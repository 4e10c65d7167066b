// Generated from the gateway's /openapi.json by `npm run generate:dashboard-api` (openapi-typescript). Do not edit.
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: database, migrations, reference data and (distributed) NATS */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/classification-codes/{scheme}/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Validate an exact CN or CPA code against an approved catalog */
        get: {
            parameters: {
                query?: {
                    /** @description CN year (2022) or CPA version (2.1); must be approved and cover legal_date */
                    catalog_version?: string;
                    /** @description default today (UTC) */
                    legal_date?: string;
                };
                header?: never;
                path: {
                    /** @description CN: 2, 4, 6 or 8 digits (or the display form 0101 21 00); CPA: dot-separated digit groups */
                    code: string;
                    scheme: "cn" | "cpa";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/classification/correction-reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The correction-review list: reclassifications the ledger did not apply (locked or filed Union OSS quarter, oversized order, manual decision), oldest first (keyset cursor) */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description 1-200, default 50 */
                    limit?: string;
                    order_reference?: string;
                    product_reference?: string;
                    reason?: "union_oss_period_locked" | "order_too_large" | "manual_decision";
                    status?: "open" | "applied" | "dismissed";
                    /** @description the ledger id (UUID) of a supply event */
                    supply_event_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/classification/correction-reviews/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve a correction-review entry: apply (its proposal, with the open entries routed with it for the same order, becomes a manual decision) or dismiss; an identical retry answers the stored resolution */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description the entry id (UUID) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        action: "apply" | "dismiss";
                        /** @description required, 1-1000 characters, not only spaces, no control characters */
                        note: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/compliance/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Threshold notifications of the account (warning band entered, threshold crossed), oldest first */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description 1-100, default 50 */
                    limit?: string;
                    unread?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/compliance/notifications/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark a threshold notification read (idempotent; the first read time is kept; scope full) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/compliance/threshold-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Article 59c threshold status of the account (current and preceding calendar year) from committed supply events */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{integration_id}/product-code-assignments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current assignment heads of an integration (keyset cursor; filters product_reference, state) */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description 1-200, default 50 */
                    limit?: string;
                    product_reference?: string;
                    state?: "submitted" | "validated" | "archived";
                };
                header?: never;
                path: {
                    /** @description an integration of the key's account */
                    integration_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Submit a product-code assignment: a new head revision (201), or the unchanged head for an identical retry (200) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description an integration of the key's account */
                    integration_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description required when requested_valid_from is before today */
                        attestation?: {
                            attested_by?: string;
                            statement?: string;
                        } | null;
                        /** @description an 8-digit CN subheading or a 6-digit CPA subcategory */
                        exact_code: string;
                        product_reference: string;
                        /** @description a date before today needs an attestation */
                        requested_valid_from: string;
                        /** @description exclusive; null or omitted = the catalog edition's end */
                        requested_valid_to?: string | null;
                        /** @enum {string} */
                        scheme: "cn" | "cpa";
                        variant_reference?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{integration_id}/product-code-assignments/{assignment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One assignment: its head and every revision, oldest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description UUID */
                    assignment_id: string;
                    integration_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{integration_id}/product-code-assignments/{assignment_id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Archive: a tombstone successor revision, reprocessing enqueued */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description UUID */
                    assignment_id: string;
                    integration_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{integration_id}/product-code-assignments/{assignment_id}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Validate the head: a validated successor revision (the code is checked again), reprocessing enqueued */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description UUID */
                    assignment_id: string;
                    integration_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/country-vat-breakdown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Union OSS breakdown per Member State of consumption (minor units) */
        get: {
            parameters: {
                query: {
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/country-vat-breakdown/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Country breakdown export package (major units; CSV or JSON with manifest) */
        get: {
            parameters: {
                query: {
                    /** @description 1 (the default and only version) */
                    export_version?: string;
                    /** @description csv: manifest repeated on every row; json: { manifest, report } */
                    format: "csv" | "json";
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/filing-prep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OSS/IOSS filing-prep workspace: registrations, Union OSS quarter (or why it is not eligible), the three IOSS months (EUR minor units), locked-period metadata, official basis */
        get: {
            parameters: {
                query: {
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/ioss-monthly/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Drill-down: the imported-goods events of one IOSS month with their disposition (included/excluded), exclusion code and review (keyset cursor) */
        get: {
            parameters: {
                query: {
                    cursor?: string;
                    disposition?: "included" | "excluded";
                    /** @description 1-500, default 100 */
                    limit?: string;
                    /** @description Member State of consumption (EL for Greece) */
                    member_state?: string;
                    /** @description IOSS month YYYY-MM, from 2021-07 (when IOSS began) */
                    month: string;
                    /** @description an IOSS exclusion code (e.g. consignment_above_150_eur_excluded) */
                    reason?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/locked-return-periods/union-oss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Locked Union OSS quarters, latest first; with `period`, `current_period` and its stored exports */
        get: {
            parameters: {
                query?: {
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Lock a quarter: freeze the accountant preview at the ledger head and store immutable JSON and CSV artifacts (409 period_already_locked; 409 period_not_ended until the quarter's last day has passed) */
        post: {
            parameters: {
                query: {
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/locked-return-periods/union-oss/exports/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download one stored artifact of a locked quarter, byte-identical to when it was locked */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    export_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/locked-return-periods/union-oss/filed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark a locked quarter as filed; repeats keep the first filing audit (409 period_not_locked; 409 period_not_ended before the quarter's end) */
        post: {
            parameters: {
                query: {
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/multi-jurisdiction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Filing-exposure preview per Member State of consumption: Union OSS sections 2a-2d and IOSS months at their month-end rates (minor units; requires the union_oss registration) */
        get: {
            parameters: {
                query: {
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/oss-accountant-report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Accountant report: manifest, filing context (due date, nil return, status), summary and breakdown in major units */
        get: {
            parameters: {
                query: {
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/oss-quarterly-summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Union OSS quarterly summary preview (sections 2a-2d, corrections, balances; minor units) */
        get: {
            parameters: {
                query: {
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/oss-quarterly-summary/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Drill-down: the source events of one quarter's return with their disposition (included/excluded), warning code, reason and review; a locked quarter lists what its lock sealed (keyset cursor) */
        get: {
            parameters: {
                query: {
                    cursor?: string;
                    disposition?: "included" | "excluded";
                    /** @description 1-500, default 100 */
                    limit?: string;
                    /** @description Member State of consumption (EL for Greece) */
                    member_state?: string;
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                    /** @description a warning code (e.g. unsupported_supply_kind_excluded) or a reason (e.g. domestic_supply) */
                    reason?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/oss-quarterly-summary/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Quarterly summary export package (major units; CSV or JSON with manifest) */
        get: {
            parameters: {
                query: {
                    /** @description 1 (the default and only version) */
                    export_version?: string;
                    /** @description csv: manifest repeated on every row; json: { manifest, report } */
                    format: "csv" | "json";
                    /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                    period: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard sign-in: exchange an API key (scope full or read-only) for a session cookie (HttpOnly, SameSite=Strict); the key is not kept by the browser */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        api_key: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard session of the cookie: scope, CSRF token, expiry (404 no_session for an X-API-Key request) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        /** Dashboard sign-out: revokes the session (also for every replica and after a restart) and clears the cookie */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Source profiles of the account with the profile caps */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Create a source profile */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean | null;
                        /** @enum {string} */
                        channel_type: "owned_store" | "marketplace" | "subscription" | "pos" | "wholesale" | "test" | "other";
                        /** @description empty string clears; null or omitted keeps */
                        default_country?: string | null;
                        /** @description empty string clears; null or omitted keeps */
                        default_currency?: string | null;
                        /** @description empty string clears; null or omitted keeps */
                        dispatch_country?: string | null;
                        display_name: string;
                        marketplace_deemed_supplier?: boolean | null;
                        /** @description empty string clears; null or omitted keeps */
                        platform?: string | null;
                        source_key: string;
                        /** @description empty string clears; null or omitted keeps */
                        supplier_establishment_country?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update labels, channel metadata or archive state (source_key is immutable) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean | null;
                        /** @enum {string|null} */
                        channel_type?: "owned_store" | "marketplace" | "subscription" | "pos" | "wholesale" | "test" | "other" | null;
                        /** @description empty string clears; null or omitted keeps */
                        default_country?: string | null;
                        /** @description empty string clears; null or omitted keeps */
                        default_currency?: string | null;
                        /** @description empty string clears; null or omitted keeps */
                        dispatch_country?: string | null;
                        display_name?: string | null;
                        marketplace_deemed_supplier?: boolean | null;
                        /** @description empty string clears; null or omitted keeps */
                        platform?: string | null;
                        source_key?: string;
                        /** @description empty string clears; null or omitted keeps */
                        supplier_establishment_country?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        trace?: never;
    };
    "/v1/sources/unknown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Raw X-Source-ID tags seen in transactions that have no profile */
        get: {
            parameters: {
                query?: {
                    /** @description 1-500, default 50 */
                    limit?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/supply-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Committed supply events in ledger order (keyset cursor) */
        get: {
            parameters: {
                query?: {
                    classification_status?: string;
                    country_of_consumption?: string;
                    cursor?: string;
                    event_type?: string;
                    /** @description inclusive, UTC date of occurred_at */
                    from?: string;
                    /** @description 1-500, default 50 */
                    limit?: string;
                    source_id?: string;
                    supply_kind?: string;
                    /** @description inclusive, UTC date of occurred_at */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Commit one supply event, or { "events": [...] } (1-1,000, all-or-nothing, per-item errors on 400; a new event of a locked quarter carries a `notice`) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description one event, or { events: [event, ...] } */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description optional: commits this v1 calculation of the account (its country, currency, amounts and rate must match or be omitted) */
                        calculation_id?: string | null;
                        /** @description classified, needs_review, excluded */
                        classification_status?: string | null;
                        /** @description imported_goods only */
                        consignment_reference?: string | null;
                        /** @description ISO 3166-1 alpha-2 (GR for Greece) */
                        country_of_consumption?: string | null;
                        /** @description ISO 4217 with minor units */
                        currency?: string | null;
                        /** @description b2c or b2b */
                        customer_type?: string | null;
                        /** @description goods: where the dispatch begins */
                        dispatch_country?: string | null;
                        /** @description caller's id, 1-100 of letters, digits, _ - / . :; unique per account */
                        event_id?: string | null;
                        /** @description sale, refund, cancellation, credit_note, adjustment */
                        event_type?: string | null;
                        /** @description imported_goods only */
                        excise_goods?: boolean | null;
                        /** @description optional: one of the account's integrations */
                        integration_id?: number | null;
                        /** @description imported_goods only */
                        intrinsic_value_eur_minor?: number | null;
                        /** @description signed minor units: a sale >= 0; refund, cancellation, credit note <= 0 */
                        net_amount_minor?: number | null;
                        /** @description the tax point: YYYY-MM-DD (midnight UTC) or RFC 3339 */
                        occurred_at?: string | null;
                        /** @description optional, 1-200 characters */
                        order_reference?: string | null;
                        /** @description for every non-sale: the event_id of the sale it corrects; null or absent on a sale */
                        original_event_id?: string | null;
                        /** @description optional, 1-200 characters */
                        product_reference?: string | null;
                        /** @description standard, reduced, super_reduced, parking, zero, exempt */
                        rate_category?: string | null;
                        /** @description optional ISO 3166-2 region with rates of its own reported under the Member State: PT-20 (Azores), PT-30 (Madeira) */
                        region?: string | null;
                        /** @description optional raw source tag (as X-Source-ID) */
                        source_id?: string | null;
                        /** @description where the supplying establishment is */
                        supplier_establishment_country?: string | null;
                        /** @description goods, services, imported_goods, new_means_of_transport, installed_goods */
                        supply_kind?: string | null;
                        /** @description optional: a class of GET /v1/tax-classes (else unknown_tax_class) */
                        tax_class_id?: string | null;
                        /** @description imported_goods only: non-EU country */
                        third_country_origin?: string | null;
                        /** @description optional, 1-200 characters */
                        variant_reference?: string | null;
                        /** @description half-up(net x bps / 10000) within one minor unit */
                        vat_amount_minor?: number | null;
                        /** @description 0 to 10000 */
                        vat_rate_bps?: number | null;
                    } | {
                        events: {
                            /** @description optional: commits this v1 calculation of the account (its country, currency, amounts and rate must match or be omitted) */
                            calculation_id?: string | null;
                            /** @description classified, needs_review, excluded */
                            classification_status?: string | null;
                            /** @description imported_goods only */
                            consignment_reference?: string | null;
                            /** @description ISO 3166-1 alpha-2 (GR for Greece) */
                            country_of_consumption?: string | null;
                            /** @description ISO 4217 with minor units */
                            currency?: string | null;
                            /** @description b2c or b2b */
                            customer_type?: string | null;
                            /** @description goods: where the dispatch begins */
                            dispatch_country?: string | null;
                            /** @description caller's id, 1-100 of letters, digits, _ - / . :; unique per account */
                            event_id?: string | null;
                            /** @description sale, refund, cancellation, credit_note, adjustment */
                            event_type?: string | null;
                            /** @description imported_goods only */
                            excise_goods?: boolean | null;
                            /** @description optional: one of the account's integrations */
                            integration_id?: number | null;
                            /** @description imported_goods only */
                            intrinsic_value_eur_minor?: number | null;
                            /** @description signed minor units: a sale >= 0; refund, cancellation, credit note <= 0 */
                            net_amount_minor?: number | null;
                            /** @description the tax point: YYYY-MM-DD (midnight UTC) or RFC 3339 */
                            occurred_at?: string | null;
                            /** @description optional, 1-200 characters */
                            order_reference?: string | null;
                            /** @description for every non-sale: the event_id of the sale it corrects; null or absent on a sale */
                            original_event_id?: string | null;
                            /** @description optional, 1-200 characters */
                            product_reference?: string | null;
                            /** @description standard, reduced, super_reduced, parking, zero, exempt */
                            rate_category?: string | null;
                            /** @description optional ISO 3166-2 region with rates of its own reported under the Member State: PT-20 (Azores), PT-30 (Madeira) */
                            region?: string | null;
                            /** @description optional raw source tag (as X-Source-ID) */
                            source_id?: string | null;
                            /** @description where the supplying establishment is */
                            supplier_establishment_country?: string | null;
                            /** @description goods, services, imported_goods, new_means_of_transport, installed_goods */
                            supply_kind?: string | null;
                            /** @description optional: a class of GET /v1/tax-classes (else unknown_tax_class) */
                            tax_class_id?: string | null;
                            /** @description imported_goods only: non-EU country */
                            third_country_origin?: string | null;
                            /** @description optional, 1-200 characters */
                            variant_reference?: string | null;
                            /** @description half-up(net x bps / 10000) within one minor unit */
                            vat_amount_minor?: number | null;
                            /** @description 0 to 10000 */
                            vat_rate_bps?: number | null;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/supply-events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One committed supply event by the ledger's id */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tax-class/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve the governed mapping of an exact code to a tax class (fails closed to needs_review) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        catalog_version: string;
                        /** @description CN: 2, 4, 6 or 8 digits (or the display form 0101 21 00); CPA: dot-separated digit groups */
                        exact_code: string;
                        jurisdiction: string;
                        legal_date: string;
                        /** @enum {string} */
                        scheme: "cn" | "cpa";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tax-classes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tax classes (optionally with the rate preview for a country) */
        get: {
            parameters: {
                query?: {
                    /** @description RFC 3339 timestamp or YYYY-MM-DD; default now (UTC) */
                    at?: string;
                    country?: string;
                    group?: string;
                    q?: string;
                    tag?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tax-classes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One tax class with its rates in force at `at` */
        get: {
            parameters: {
                query?: {
                    /** @description RFC 3339 timestamp or YYYY-MM-DD; default now (UTC) */
                    at?: string;
                    country?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tax-registrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OSS/IOSS registrations of the account, most recent effective window first (masked identifiers only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Create an OSS/IOSS registration (the full identifiers are encrypted at rest and only shown masked) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description first day in force */
                        effective_from: string;
                        /** @description last day in force (inclusive); absent = open-ended */
                        effective_to?: string;
                        /** @description ioss only */
                        ioss_intermediary_name?: string;
                        /** @description ioss only; IN + 10 digits; never returned */
                        ioss_intermediary_number?: string;
                        /** @description EU Member State of identification, ISO 3166-1 alpha-2 (Greece is GR) */
                        member_state_identification: string;
                        /** @enum {string} */
                        scheme_type: "union_oss" | "non_union_oss" | "ioss";
                        /** @enum {string} */
                        status: "active" | "pending" | "ended" | "excluded";
                        /** @description Full identifier, never returned: union_oss the VAT number of the Member State of identification (prefix EL for Greece); non_union_oss EU + 9 digits; ioss the IOSS number IM + 10 digits. Spaces, dots and hyphens are ignored. */
                        vat_registration_number?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tax-registrations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update a registration: omitted fields keep their value, "" clears an optional one; scheme_type is immutable */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description first day in force. Omit to keep, "" to clear; null is refused. */
                        effective_from?: string;
                        /** @description last day in force (inclusive); absent = open-ended. Omit to keep, "" to clear; null is refused. */
                        effective_to?: string;
                        /** @description ioss only. Omit to keep, "" to clear; null is refused. */
                        ioss_intermediary_name?: string;
                        /** @description ioss only; IN + 10 digits; never returned. Omit to keep, "" to clear; null is refused. */
                        ioss_intermediary_number?: string;
                        /** @description EU Member State of identification, ISO 3166-1 alpha-2 (Greece is GR). Omit to keep, "" to clear; null is refused. */
                        member_state_identification?: string;
                        /** @description refused: scheme_type cannot change */
                        scheme_type?: string;
                        /**
                         * @description Omit to keep, "" to clear; null is refused.
                         * @enum {string}
                         */
                        status?: "active" | "pending" | "ended" | "excluded";
                        /** @description Full identifier, never returned: union_oss the VAT number of the Member State of identification (prefix EL for Greece); non_union_oss EU + 9 digits; ioss the IOSS number IM + 10 digits. Spaces, dots and hyphens are ignored.. Omit to keep, "" to clear; null is refused. */
                        vat_registration_number?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        trace?: never;
    };
    "/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List stored calculations, newest first (keyset cursor) */
        get: {
            parameters: {
                query?: {
                    api_key_id?: string;
                    country?: string;
                    currency?: string;
                    cursor?: string;
                    /** @description inclusive, UTC transaction date */
                    from?: string;
                    /** @description 1-500, default 50 */
                    limit?: string;
                    source_id?: string;
                    tax_class_id?: string;
                    /** @description inclusive, UTC transaction date */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Evidence detail of one stored calculation */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Recalculate from the sealed canonical input, pinned rate and calculator version */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/aggregated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Totals grouped by country, tax class or month, in EUR minor units */
        get: {
            parameters: {
                query?: {
                    api_key_id?: string;
                    country?: string;
                    currency?: string;
                    /** @description inclusive, UTC transaction date */
                    from?: string;
                    group_by?: "country" | "tax_class" | "month";
                    source_id?: string;
                    /** @description inclusive, UTC transaction date */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** CSV export (from/to required, at most 367 days, capped at 1,000,000 rows) */
        get: {
            parameters: {
                query: {
                    api_key_id?: string;
                    country?: string;
                    currency?: string;
                    /** @description 1 (default) or 2 */
                    export_version?: string;
                    /** @description inclusive, UTC transaction date */
                    from: string;
                    source_id?: string;
                    tax_class_id?: string;
                    /** @description inclusive, UTC transaction date */
                    to: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vat/calculate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Calculate VAT for one amount and tax class in one EU Member State */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description 1-255 visible ASCII; requires transaction_date */
                    "idempotency-key"?: string;
                    /** @description 1-100 of letters, digits, _, -, /; reporting tag only */
                    "x-source-id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        country: string;
                        currency: string;
                        /** @description minor units; gross when price_includes_vat, else net */
                        gross_amount_minor: number;
                        price_includes_vat: boolean;
                        tax_class_id: string;
                        /** @description YYYY-MM-DD (midnight UTC) or RFC 3339; default now */
                        transaction_date?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vat/rates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rates of a country at a date, or one class's full history in a country */
        get: {
            parameters: {
                query: {
                    /** @description RFC 3339 timestamp or YYYY-MM-DD; default now (UTC) */
                    at?: string;
                    country: string;
                    history?: "true" | "false";
                    tax_class_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vat/sme-eligibility": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** SME exemption eligibility against the national Art. 284 threshold */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description minor units of the national currency */
                        annual_turnover_nac: number;
                        country: string;
                        currency: string;
                        /**
                         * Format: date
                         * @description default today (UTC)
                         */
                        reference_date?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vat/threshold-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Article 59c (oss) threshold check, or one IOSS consignment against EUR 150 (ioss) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ioss only (required): consignment intrinsic value in EUR cents */
                        amount_minor?: number;
                        /** @description oss only: must be 1 January of the cutoff year (400 invalid_threshold_range otherwise); default that date */
                        from?: string;
                        /** @enum {string} */
                        threshold_type: "oss" | "ioss";
                        /** @description oss only: UTC cutoff date, not after today (400 to_after_today); default today */
                        to?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's stored governed decisions, newest first (keyset cursor) */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description 1-200, default 50 */
                    limit?: string;
                    status?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/decisions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One stored governed decision of the account, as it was sealed */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vat/calculate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Governed, component-aware calculation: a durable decision with exactly four components */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description required; 1-255 visible ASCII */
                    "idempotency-key"?: string;
                    /** @description id or source_key of one active source profile of the account; its revision is sealed */
                    "x-evidence-profile"?: string;
                    /** @description reporting tag only; part of the idempotent identity */
                    "x-source-id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description minor units; gross when price_includes_vat, else net */
                        amount_minor: number;
                        classification?: {
                            catalog_version: string;
                            code: string;
                            /** @enum {string} */
                            scheme: "cn" | "cpa";
                        };
                        country: string;
                        currency: string;
                        price_includes_vat: boolean;
                        /** Format: uuid */
                        supersedes_decision_id?: string;
                        tax_class_id?: string;
                        /** @description YYYY-MM-DD (midnight UTC) or RFC 3339; required */
                        transaction_date?: string;
                        treatment_context?: {
                            /** @enum {string} */
                            customer_type?: "b2c" | "b2b";
                            destination_country?: string;
                            dispatch_country?: string;
                            supplier_establishment_country?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
