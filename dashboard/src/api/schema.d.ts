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
        get: operations["getHealth"];
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
        get: operations["getReady"];
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
        get: operations["getV1ClassificationCodesBySchemeByCode"];
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
        get: operations["getV1ClassificationCorrectionReviews"];
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
        post: operations["postV1ClassificationCorrectionReviewsByIdResolve"];
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
        /** Notifications of the account (Article 59c warning band entered, threshold crossed; a return period overdue), oldest first */
        get: operations["getV1ComplianceNotifications"];
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
        post: operations["postV1ComplianceNotificationsByIdRead"];
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
        get: operations["getV1ComplianceThresholdStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/compliance/threshold-status/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Article 59c: the year's cumulative counted amount by tax-point day against the threshold, with the crossing (the chart behind the status) */
        get: operations["getV1ComplianceThresholdStatusSeries"];
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
        get: operations["getV1IntegrationsByIntegrationIdProductCodeAssignments"];
        put?: never;
        /** Submit a product-code assignment: a new head revision (201), or the unchanged head for an identical retry (200) */
        post: operations["postV1IntegrationsByIntegrationIdProductCodeAssignments"];
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
        get: operations["getV1IntegrationsByIntegrationIdProductCodeAssignmentsByAssignmentId"];
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
        post: operations["postV1IntegrationsByIntegrationIdProductCodeAssignmentsByAssignmentIdArchive"];
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
        post: operations["postV1IntegrationsByIntegrationIdProductCodeAssignmentsByAssignmentIdValidate"];
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
        get: operations["getV1ReportsCountryVatBreakdown"];
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
        get: operations["getV1ReportsCountryVatBreakdownExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/filing-calendar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Filing calendar: each Union OSS quarter and IOSS month the registrations cover, with due date and status (not_due, due, overdue, locked, filed, nil_return_due); a period found overdue is notified once */
        get: operations["getV1ReportsFilingCalendar"];
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
        get: operations["getV1ReportsFilingPrep"];
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
        get: operations["getV1ReportsIossMonthlyEvents"];
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
        get: operations["getV1ReportsLockedReturnPeriodsUnionOss"];
        put?: never;
        /** Lock a quarter: freeze the accountant preview at the ledger head and store immutable JSON and CSV artifacts (409 period_already_locked; 409 period_not_ended until the quarter's last day has passed) */
        post: operations["postV1ReportsLockedReturnPeriodsUnionOss"];
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
        get: operations["getV1ReportsLockedReturnPeriodsUnionOssExportsByExportId"];
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
        /** Mark a locked quarter as filed, with an optional filing record (submission_reference, filed_on, note); repeats keep the first filing audit and record (409 period_not_locked; 409 period_not_ended before the quarter's end) */
        post: operations["postV1ReportsLockedReturnPeriodsUnionOssFiled"];
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
        get: operations["getV1ReportsMultiJurisdiction"];
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
        /** Accountant report: manifest, filing context (due date, overdue, nil return, status, filing record), summary and breakdown in major units; format=pdf for the printable report */
        get: operations["getV1ReportsOssAccountantReport"];
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
        get: operations["getV1ReportsOssQuarterlySummary"];
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
        get: operations["getV1ReportsOssQuarterlySummaryEvents"];
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
        /** Quarterly summary export package (major units; CSV or JSON with manifest), the Annex III return document (format=oss-return) or the BZSt upload file (format=bzst-csv) */
        get: operations["getV1ReportsOssQuarterlySummaryExport"];
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
        post: operations["postV1Sessions"];
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
        get: operations["getV1SessionsCurrent"];
        put?: never;
        post?: never;
        /** Dashboard sign-out: revokes the session (also for every replica and after a restart) and clears the cookie */
        delete: operations["deleteV1SessionsCurrent"];
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
        get: operations["getV1Sources"];
        put?: never;
        /** Create a source profile */
        post: operations["postV1Sources"];
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
        patch: operations["patchV1SourcesById"];
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
        get: operations["getV1SourcesUnknown"];
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
        get: operations["getV1SupplyEvents"];
        put?: never;
        /** Commit one supply event, or { "events": [...] } (1-1,000, all-or-nothing, per-item errors on 400; a new event of a locked quarter carries a `notice`) */
        post: operations["postV1SupplyEvents"];
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
        get: operations["getV1SupplyEventsById"];
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
        post: operations["postV1TaxClassResolve"];
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
        get: operations["getV1TaxClasses"];
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
        get: operations["getV1TaxClassesById"];
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
        get: operations["getV1TaxRegistrations"];
        put?: never;
        /** Create an OSS/IOSS registration (the full identifiers are encrypted at rest and only shown masked) */
        post: operations["postV1TaxRegistrations"];
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
        patch: operations["patchV1TaxRegistrationsById"];
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
        get: operations["getV1Transactions"];
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
        get: operations["getV1TransactionsById"];
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
        post: operations["postV1TransactionsByIdReplay"];
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
        get: operations["getV1TransactionsAggregated"];
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
        get: operations["getV1TransactionsExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vat-numbers/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a customer's VAT number: format and check digits, then VIES; every answer is kept as evidence (an outage answers unavailable, never invalid) */
        post: operations["postV1VatNumbersCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vat-numbers/checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The VAT-number checks of the account, newest first (keyset cursor; numbers masked) */
        get: operations["getV1VatNumbersChecks"];
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
        post: operations["postV1VatCalculate"];
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
        get: operations["getV1VatRates"];
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
        post: operations["postV1VatSmeEligibility"];
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
        post: operations["postV1VatThresholdCheck"];
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
        get: operations["getV2Decisions"];
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
        get: operations["getV2DecisionsById"];
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
        post: operations["postV2VatCalculate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The accountant report (major units) */
        AccountantReport: {
            country_breakdown: components["schemas"]["UnionOssCountryMajor"][];
            filing_context: {
                /**
                 * Format: date
                 * @description last day of the month after the quarter (Art. 369f)
                 */
                filing_due_date: string;
                filing_record: {
                    /**
                     * Format: date-time
                     * @description RFC 3339 timestamp (UTC)
                     */
                    filed_at: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD
                     */
                    filed_on: string | null;
                    note: string | null;
                    submission_reference: string | null;
                } | null;
                member_state_identification: components["schemas"]["Country"];
                /** @description true only when no source event was recorded for the quarter */
                nil_return_eligible: boolean;
                overdue: boolean;
                /**
                 * Format: date
                 * @description YYYY-MM-DD
                 */
                period_end: string;
                period_key: components["schemas"]["QuarterKey"];
                /**
                 * Format: date
                 * @description YYYY-MM-DD
                 */
                period_start: string;
                /** @enum {string} */
                period_status: "open" | "locked" | "filed";
                registration_id: number;
                return_currency: components["schemas"]["Currency"];
                /**
                 * @description the filing hint of the quarter (docs/union-oss.md)
                 * @enum {string}
                 */
                status: "nil_return" | "review_required" | "ready_with_warnings" | "ready";
                status_detail: string;
            };
            manifest: components["schemas"]["ExportManifest"];
            summary: components["schemas"]["UnionOssSummaryMajor"];
        };
        BalanceMajor: {
            balance: components["schemas"]["MajorAmount"];
            correction_vat: components["schemas"]["MajorAmount"];
            current_vat: components["schemas"]["MajorAmount"];
            included_in_grand_total: boolean;
            member_state_of_consumption: components["schemas"]["Country"];
            payable_vat: components["schemas"]["MajorAmount"];
        };
        /** @description The balance of one Member State of consumption */
        BalanceMinor: {
            balance_minor: components["schemas"]["MoneyMinor"];
            correction_vat_minor: components["schemas"]["MoneyMinor"];
            current_vat_minor: components["schemas"]["MoneyMinor"];
            included_in_grand_total: boolean;
            member_state_of_consumption: components["schemas"]["Country"];
            /** @description the balance when positive, else 0: a negative balance never offsets another Member State */
            payable_vat_minor: components["schemas"]["MoneyMinor"];
        };
        /** @description The manifest stored with a German lock: the BZSt upload file, the corrections to enter by hand, or why no file was stored */
        BzstManifest: {
            file_stored: boolean;
            /** @enum {string} */
            format: "bzst-csv";
            format_version: string;
            ledger_position: number;
            /** @enum {string} */
            manifest_kind: "union_oss_bzst_upload_manifest";
            manual_corrections: {
                member_state_of_consumption: string;
                original_period: components["schemas"]["QuarterKey"];
                vat_amount: components["schemas"]["MajorAmount"];
            }[];
            manual_corrections_note: string;
            member_state_identification: components["schemas"]["Country"];
            period_key: components["schemas"]["QuarterKey"];
            problems: {
                /** @enum {string} */
                code: "negative_vat" | "zero_amount" | "too_many_rows";
                detail: string;
                member_state_of_consumption: string | null;
                origin_member_state: string | null;
                /** @enum {string|null} */
                supply_type: "GOODS" | "SERVICES" | null;
                vat_rate_pct: string | null;
            }[];
            row_count: number | null;
            sources: string[];
        };
        /** @description ISO 3166-1 alpha-2 (Greece: EL or GR as the field says) */
        Country: string;
        /** @description ISO 4217 alphabetic code */
        Currency: string;
        /** @description Every error answer: a stable machine code and a human text; some codes add documented members. */
        Error: {
            /** @description 422 eligibility refusals of Union OSS reports */
            blocking_registration_ids?: number[];
            /** @description 409 registration_overlap */
            conflicting_registration_id?: number;
            /** @description human-readable explanation; never carries internals */
            detail: string;
            /** @description stable machine-readable code; the operation lists the codes of each status */
            error: string;
            /** @description 400 invalid_supply_events: every refused item */
            errors?: components["schemas"]["ItemError"][];
            guidance?: string;
            /** @description 429 rate_limited: seconds to wait (also the Retry-After header) */
            retry_after_seconds?: number;
        } & {
            [key: string]: unknown;
        };
        /** @description An exchange rate a return used */
        ExchangeRateUsed: {
            currency: components["schemas"]["Currency"];
            /** @description the quarter (Union OSS) or month (IOSS) whose last day the rate is for */
            period_key: string;
            /** @description ECB euro reference rate: units of the currency per 1 EUR, as published */
            rate: string;
            /**
             * Format: date
             * @description the publication day used: the requested day or the next one with a publication
             */
            rate_date: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            requested_date: string;
        };
        /** @description The manifest of every export package and of the accountant report (the two codes are absent from artifacts stored by locks before CSV layout 2) */
        ExportManifest: {
            conversion_rule: string;
            /**
             * @description the conversion rule as the CSV rows carry it (CSV layout 2)
             * @enum {string}
             */
            conversion_rule_code?: "ecb_quarter_end_v1";
            exchange_rates: components["schemas"]["ExchangeRateUsed"][];
            /** @enum {string} */
            export_kind: "union_oss_quarterly_summary_preview" | "union_oss_country_vat_breakdown_preview" | "union_oss_accountant_report_preview" | "union_oss_accountant_report_locked" | "union_oss_quarterly_summary_locked";
            /** @enum {integer} */
            export_version: 1;
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            generated_at: string;
            ledger_position: number;
            member_state_identification: components["schemas"]["Country"];
            period_key: components["schemas"]["QuarterKey"];
            registration_id: number;
            return_currency: components["schemas"]["Currency"];
            /** @enum {string} */
            scheme_type: "union_oss";
            scope_note: string;
            /**
             * @description the scope note as the CSV rows carry it (CSV layout 2)
             * @enum {string}
             */
            scope_note_code?: "union_oss_preview_v1" | "union_oss_locked_v1";
            source_event_counts: components["schemas"]["SourceEventCounts"];
            warnings: components["schemas"]["UnionOssWarning"][];
        };
        FilingCalendar: {
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            from: string;
            periods: {
                /**
                 * Format: date
                 * @description last day of the month after the period (Arts. 369f, 369v of Directive 2006/112/EC)
                 */
                due_date: string;
                /**
                 * Format: date-time
                 * @description RFC 3339 timestamp (UTC)
                 */
                filed_at: string | null;
                /**
                 * Format: date
                 * @description YYYY-MM-DD
                 */
                filed_on: string | null;
                locked: boolean;
                /** @description not filed by its due date (also for nil_return_due) */
                overdue: boolean;
                /**
                 * Format: date
                 * @description YYYY-MM-DD
                 */
                period_end: string;
                /** @description YYYY-Qn (union_oss) or YYYY-MM (ioss) */
                period_key: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD
                 */
                period_start: string;
                registration_ids: number[];
                /** @enum {string} */
                scheme_type: "union_oss" | "ioss";
                source_event_count: number;
                /** @enum {string} */
                status: "not_due" | "due" | "overdue" | "locked" | "filed" | "nil_return_due";
                submission_reference: string | null;
            }[];
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            to: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            today: string;
        };
        /** @description The OSS/IOSS filing-prep workspace of a quarter */
        FilingPrep: {
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            generated_at: string;
            ioss: components["schemas"]["IossQuarter"];
            official_basis: components["schemas"]["OfficialBasis"][];
            period_key: components["schemas"]["QuarterKey"];
            registrations: components["schemas"]["TaxRegistration"][];
            /** @enum {string} */
            report_kind: "oss_ioss_filing_prep_workspace";
            /** @description the lock of the quarter (its artifacts are listed by the locked-periods route), or null */
            return_period: components["schemas"]["LockedPeriod"] | null;
            /** @description the Union OSS quarter, or why it cannot be reported (eligible false) */
            union_oss: {
                balances: components["schemas"]["BalanceMinor"][];
                /** @description how amounts in other currencies are converted (Art. 366(2) of Directive 2006/112/EC) */
                conversion_rule: string;
                corrections: components["schemas"]["UnionOssCorrection"][];
                /** @enum {boolean} */
                eligible: true;
                exchange_rates: components["schemas"]["ExchangeRateUsed"][];
                excluded_source_event_count: number;
                /**
                 * Format: date-time
                 * @description RFC 3339 timestamp (UTC)
                 */
                generated_at: string;
                included_source_event_count: number;
                /** @description the ledger position the figures reflect (the lock's for a locked quarter) */
                ledger_position: number;
                member_state_identification: components["schemas"]["Country"];
                /**
                 * Format: date
                 * @description YYYY-MM-DD
                 */
                period_end: string;
                period_key: components["schemas"]["QuarterKey"];
                /**
                 * Format: date
                 * @description YYYY-MM-DD
                 */
                period_start: string;
                /** @enum {string} */
                period_status: "open" | "locked" | "filed";
                registration_id: number;
                return_currency: components["schemas"]["Currency"];
                rows: components["schemas"]["UnionOssRow"][];
                /** @enum {string} */
                scheme_type: "union_oss";
                total_source_event_count: number;
                totals: components["schemas"]["TotalsMinor"];
                warnings: components["schemas"]["UnionOssWarning"][];
            } | {
                blocking_registration_ids: number[];
                detail: string;
                /** @enum {boolean} */
                eligible: false;
                /** @enum {string} */
                error: "registration_required" | "registration_conflict";
            };
        };
        /** @description The filer's record of the submission */
        FilingRecord: {
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            filed_on: string | null;
            note: string | null;
            submission_reference: string | null;
        };
        /** @description A page of the imported-goods events of an IOSS month with their disposition */
        IossEventPage: {
            items: {
                currency: components["schemas"]["Currency"];
                /** @enum {string} */
                disposition: "included" | "excluded";
                event_id: string;
                /** @enum {string} */
                event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                ledger_sequence: number;
                member_state_of_consumption: string;
                net_amount_minor: components["schemas"]["MoneyMinor"];
                /**
                 * Format: date-time
                 * @description RFC 3339 timestamp (UTC)
                 */
                occurred_at: string;
                /**
                 * @description the exclusion code (as warning_code)
                 * @enum {string|null}
                 */
                reason: "classification_excluded" | "needs_review_excluded" | "unsupported_supply_kind_excluded" | "unsupported_rate_category_excluded" | "ioss_registration_missing_excluded" | "ioss_registration_overlap_excluded" | "outside_registration_window_excluded" | "excise_goods_excluded" | "third_country_origin_missing_excluded" | "consignment_above_150_eur_excluded" | "unverified_eur_value_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded" | null;
                /**
                 * @description needs_review: a data problem to fix; informational: the law keeps the events out of the scheme
                 * @enum {string|null}
                 */
                review: "needs_review" | "informational" | null;
                vat_amount_minor: components["schemas"]["MoneyMinor"];
                /** @enum {string|null} */
                warning_code: "classification_excluded" | "needs_review_excluded" | "unsupported_supply_kind_excluded" | "unsupported_rate_category_excluded" | "ioss_registration_missing_excluded" | "ioss_registration_overlap_excluded" | "outside_registration_window_excluded" | "excise_goods_excluded" | "third_country_origin_missing_excluded" | "consignment_above_150_eur_excluded" | "unverified_eur_value_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded" | null;
            }[];
            next_cursor: components["schemas"]["NextCursor"];
            period_key: components["schemas"]["MonthKey"];
            /** @enum {string} */
            scheme_type: "ioss";
        };
        /** @description One IOSS month (EUR minor units) */
        IossMonth: {
            balances: components["schemas"]["BalanceMinor"][];
            corrections: {
                member_state_of_consumption: components["schemas"]["Country"];
                original_period: components["schemas"]["MonthKey"];
                vat_amount_minor: components["schemas"]["MoneyMinor"];
            }[];
            /**
             * Format: date
             * @description last day of the month after the month (Art. 369v)
             */
            due_date: string;
            period_key: components["schemas"]["MonthKey"];
            registration_ids: number[];
            /** @enum {string} */
            return_currency: "EUR";
            rows: {
                member_state_of_consumption: components["schemas"]["Country"];
                source_event_count: number;
                taxable_amount_minor: components["schemas"]["MoneyMinor"];
                vat_amount_minor: components["schemas"]["MoneyMinor"];
                vat_rate_bps: number;
            }[];
            source_event_counts: components["schemas"]["SourceEventCounts"];
            /** @enum {string} */
            status: "not_covered" | "registration_conflict" | "nil_return_candidate" | "review_required" | "ready";
            totals: components["schemas"]["TotalsMinor"];
            warnings: {
                /** @enum {string} */
                code: "classification_excluded" | "needs_review_excluded" | "unsupported_supply_kind_excluded" | "unsupported_rate_category_excluded" | "ioss_registration_missing_excluded" | "ioss_registration_overlap_excluded" | "outside_registration_window_excluded" | "excise_goods_excluded" | "third_country_origin_missing_excluded" | "consignment_above_150_eur_excluded" | "unverified_eur_value_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded";
                count: number;
            }[];
        };
        IossQuarter: {
            conversion_rule: string;
            exchange_rates: components["schemas"]["ExchangeRateUsed"][];
            months: components["schemas"]["IossMonth"][];
            /** @enum {string} */
            return_currency: "EUR";
            /** @enum {string} */
            scheme_type: "ioss";
        };
        /** @description One refused item of a batch */
        ItemError: {
            detail: string;
            error: string;
            event_id: string | null;
            field: string | null;
            index: number;
        };
        /** @description A stored artifact of a locked quarter */
        LockedExport: {
            byte_size: number;
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            created_at: string;
            /** @description where GET downloads the artifact */
            download_path: string;
            /** Format: uuid */
            export_id: string;
            /** @enum {string} */
            export_kind: "union_oss_accountant_report_locked" | "union_oss_accountant_report_pdf_locked" | "union_oss_quarterly_summary_locked" | "union_oss_return_locked" | "union_oss_bzst_upload_locked" | "union_oss_bzst_manifest_locked";
            filename: string;
            /** @enum {string} */
            format: "json" | "csv" | "pdf";
            /** @enum {string} */
            media_type: "application/json; charset=utf-8" | "text/csv; charset=utf-8" | "application/pdf";
            sha256: string;
        };
        /** @description A locked Union OSS quarter */
        LockedPeriod: {
            excluded_source_event_count: number;
            /** @description with `exports` (absent where the artifacts are not listed) */
            export_count?: number;
            exports?: components["schemas"]["LockedExport"][];
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            filed_at: string | null;
            filed_by_api_key_id: number | null;
            /**
             * Format: date
             * @description last day of the month after the quarter (Art. 369f)
             */
            filing_due_date: string;
            filing_record: components["schemas"]["FilingRecord"] | null;
            /** @enum {string} */
            filing_status: "nil_return" | "review_required" | "ready_with_warnings" | "ready" | "filed";
            filing_status_detail: string;
            included_source_event_count: number;
            jurisdiction_count: number;
            ledger_position: number;
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            locked_at: string;
            locked_by_api_key_id: number;
            member_state_identification: components["schemas"]["Country"];
            nil_return_eligible: boolean;
            /** @description not filed and past its due date (today, UTC) */
            overdue: boolean;
            period_key: components["schemas"]["QuarterKey"];
            registration_id: number;
            return_currency: components["schemas"]["Currency"];
            /** @enum {string} */
            scheme_type: "union_oss";
            /** @enum {string} */
            status: "locked" | "filed";
            total_source_event_count: number;
            warning_count: number;
        };
        /** @description a major-unit decimal string of the return currency (exports and the accountant report), e.g. "93.03" */
        MajorAmount: string;
        /** @description Integer minor units of the currency (cents); exact, never rounded: sums may exceed 2^53 and are then still written as exact JSON integers */
        MoneyMinor: number;
        /** @description IOSS month YYYY-MM */
        MonthKey: string;
        /** @description Filing exposure per Member State of consumption: Union OSS sections 2a-2d and the IOSS months */
        MultiJurisdiction: {
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            generated_at: string;
            ioss: components["schemas"]["IossQuarter"];
            jurisdictions: {
                event_counts: {
                    ioss: number;
                    total: number;
                    union_oss: number;
                };
                ioss: {
                    correction_vat_minor: components["schemas"]["MoneyMinor"];
                    current_vat_minor: components["schemas"]["MoneyMinor"];
                    months: components["schemas"]["MonthKey"][];
                    payable_vat_minor: components["schemas"]["MoneyMinor"];
                    /** @enum {string} */
                    return_currency: "EUR";
                    source_event_count: number;
                    taxable_amount_minor: components["schemas"]["MoneyMinor"];
                };
                member_state_of_consumption: components["schemas"]["Country"];
                union_oss: {
                    balance_minor: components["schemas"]["MoneyMinor"];
                    correction_vat_minor: components["schemas"]["MoneyMinor"];
                    payable_vat_minor: components["schemas"]["MoneyMinor"];
                    return_currency: components["schemas"]["Currency"];
                    sections: {
                        "2a": {
                            source_event_count: number;
                            taxable_amount_minor: components["schemas"]["MoneyMinor"];
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                        };
                        "2b": {
                            source_event_count: number;
                            taxable_amount_minor: components["schemas"]["MoneyMinor"];
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                        };
                        "2c": {
                            source_event_count: number;
                            taxable_amount_minor: components["schemas"]["MoneyMinor"];
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                        };
                        "2d": {
                            source_event_count: number;
                            taxable_amount_minor: components["schemas"]["MoneyMinor"];
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                        };
                    };
                    source_event_count: number;
                };
            }[];
            official_basis: components["schemas"]["OfficialBasis"][];
            period_key: components["schemas"]["QuarterKey"];
            /** @enum {string} */
            report_kind: "oss_ioss_multi_jurisdiction_preview";
            union_oss: components["schemas"]["UnionOssSummary"];
            warnings: ({
                /** @enum {string} */
                code: "classification_excluded" | "needs_review_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded" | "unsupported_rate_category_excluded" | "unsupported_supply_kind_excluded";
                count: number;
                period_key: components["schemas"]["QuarterKey"];
                /** @enum {string} */
                reason: "classification_excluded" | "needs_review_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded" | "zero_rate" | "exempt_rate" | "rate_not_in_force" | "imported_goods" | "b2b_supply" | "domestic_supply" | "consumption_outside_eu" | "new_means_of_transport" | "installed_goods" | "b2b_without_vat_number_evidence" | "dispatch_country_missing" | "origin_outside_eu" | "unknown_supply_kind";
                /**
                 * @description needs_review: a data problem to fix; informational: the law keeps the events out of the scheme
                 * @enum {string}
                 */
                review: "needs_review" | "informational";
                /** @enum {string} */
                scheme_type: "union_oss";
            } | {
                /** @enum {string} */
                code: "classification_excluded" | "needs_review_excluded" | "unsupported_supply_kind_excluded" | "unsupported_rate_category_excluded" | "ioss_registration_missing_excluded" | "ioss_registration_overlap_excluded" | "outside_registration_window_excluded" | "excise_goods_excluded" | "third_country_origin_missing_excluded" | "consignment_above_150_eur_excluded" | "unverified_eur_value_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded";
                count: number;
                period_key: components["schemas"]["MonthKey"];
                /** @enum {string} */
                scheme_type: "ioss";
            })[];
        };
        /** @description Opaque keyset cursor: send it as `cursor` for the next page; null on the last page */
        NextCursor: string | null;
        /** @description A notification: an Article 59c mark (warning band entered, threshold crossed) or a return period past its due date */
        Notification: {
            /**
             * Format: date-time
             * @description RFC 3339 timestamp
             */
            created_at: string;
            /** @description the year's cumulative net amount after that event (EUR minor units) */
            cumulative_minor: number;
            currency: components["schemas"]["Currency"];
            /** @description the supply event that moved the total */
            event_id: string;
            id: number;
            /** @enum {string} */
            kind: "article_59c_warning_band_entered" | "article_59c_threshold_crossed";
            /**
             * Format: date-time
             * @description RFC 3339 timestamp
             */
            occurred_at: string;
            read: boolean;
            /**
             * Format: date-time
             * @description RFC 3339 timestamp
             */
            read_at: string | null;
            /**
             * Format: date-time
             * @description RFC 3339 timestamp
             */
            recorded_at: string;
            /** @description Integer minor units of the currency (cents); exact, never rounded: sums may exceed 2^53 and are then still written as exact JSON integers */
            threshold_minor: number;
            year: number;
        } | {
            /**
             * Format: date-time
             * @description RFC 3339 timestamp
             */
            created_at: string;
            /**
             * Format: date
             * @description the last day of the month after the period
             */
            due_date: string;
            id: number;
            /** @enum {string} */
            kind: "return_period_overdue";
            /** @description YYYY-Qn (union_oss) or YYYY-MM (ioss) */
            period_key: string;
            read: boolean;
            /**
             * Format: date-time
             * @description RFC 3339 timestamp
             */
            read_at: string | null;
            /** @enum {string} */
            scheme_type: "union_oss" | "ioss";
            year: number;
        };
        /** @description Integer minor units of the currency (cents); exact, never rounded: sums may exceed 2^53 and are then still written as exact JSON integers */
        NullableMoneyMinor: number | null;
        /** @description A legal anchor of a report */
        OfficialBasis: {
            article: string;
            instrument: string;
            topic: string;
        };
        /** @description The Union OSS return as Annex III (Part 1) of Implementing Regulation (EU) 2020/194 structures it (minor units of the return currency) */
        OssReturnDocument: {
            basis: string;
            /** @enum {string} */
            document_kind: "union_oss_return";
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            generated_at: string;
            ledger_position: number;
            member_state_identification: components["schemas"]["Country"];
            member_states_of_consumption: {
                balance: {
                    balance_minor: components["schemas"]["MoneyMinor"];
                    correction_vat_minor: components["schemas"]["MoneyMinor"];
                    current_vat_minor: components["schemas"]["MoneyMinor"];
                    payable_vat_minor: components["schemas"]["MoneyMinor"];
                };
                corrections: {
                    original_period: components["schemas"]["QuarterKey"];
                    vat_amount_minor: components["schemas"]["MoneyMinor"];
                }[];
                member_state: components["schemas"]["Country"];
                supplies_from_member_state_of_identification: components["schemas"]["OssReturnSupply"][];
                supplies_from_other_member_states: {
                    member_state: components["schemas"]["Country"];
                    supplies: components["schemas"]["OssReturnSupply"][];
                    tax_number: string | null;
                    vat_identification_number: string | null;
                }[];
            }[];
            nil_return: boolean;
            period: {
                period_key: components["schemas"]["QuarterKey"];
                quarter: number;
                year: number;
            };
            return_currency: components["schemas"]["Currency"];
            total_payable_vat_minor: components["schemas"]["MoneyMinor"];
        };
        OssReturnSupply: {
            /** @enum {string} */
            rate_type: "STANDARD" | "REDUCED";
            /** @enum {string} */
            supply_type: "GOODS" | "SERVICES";
            taxable_amount_minor: components["schemas"]["MoneyMinor"];
            vat_amount_minor: components["schemas"]["MoneyMinor"];
            vat_rate_bps: number;
        };
        /** @description Quarter key YYYY-Qn */
        QuarterKey: string;
        SourceEventCounts: {
            excluded: number;
            included: number;
            total: number;
        };
        TaxRegistration: {
            conflicting_registration_ids: number[];
            counts_toward_coverage: boolean;
            /** @enum {string} */
            coverage_status: "counted" | "pending" | "excluded" | "cleanup_required";
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            effective_from: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            effective_to: string | null;
            id: number;
            ioss_intermediary_name: string | null;
            ioss_intermediary_number_masked: string | null;
            member_state_identification: components["schemas"]["Country"];
            /** @enum {string} */
            scheme_type: "union_oss" | "non_union_oss" | "ioss";
            /** @enum {string} */
            status: "active" | "pending" | "ended" | "excluded";
            vat_registration_number_masked: string | null;
        };
        TotalsMajor: {
            correction_vat: components["schemas"]["MajorAmount"];
            current_vat: components["schemas"]["MajorAmount"];
            payable_vat: components["schemas"]["MajorAmount"];
            taxable_amount: components["schemas"]["MajorAmount"];
        };
        TotalsMinor: {
            correction_vat_minor: components["schemas"]["MoneyMinor"];
            current_vat_minor: components["schemas"]["MoneyMinor"];
            payable_vat_minor: components["schemas"]["MoneyMinor"];
            taxable_amount_minor: components["schemas"]["MoneyMinor"];
        };
        /** @description format=json of the country breakdown export (major units) */
        UnionOssBreakdownExport: {
            manifest: components["schemas"]["ExportManifest"];
            report: {
                countries: components["schemas"]["UnionOssCountryMajor"][];
                totals: components["schemas"]["TotalsMajor"];
                warnings: components["schemas"]["UnionOssWarning"][];
            };
        };
        /** @description A correction of an earlier quarter (Art. 61 of Reg. 282/2011) */
        UnionOssCorrection: {
            member_state_of_consumption: components["schemas"]["Country"];
            original_period: components["schemas"]["QuarterKey"];
            source_event_count: number;
            vat_amount_minor: components["schemas"]["MoneyMinor"];
        };
        UnionOssCorrectionMajor: {
            member_state_of_consumption: components["schemas"]["Country"];
            original_period: components["schemas"]["QuarterKey"];
            source_event_count: number;
            vat_amount: components["schemas"]["MajorAmount"];
        };
        /** @description The Union OSS breakdown per Member State of consumption (minor units) */
        UnionOssCountryBreakdown: {
            /** @description how amounts in other currencies are converted (Art. 366(2) of Directive 2006/112/EC) */
            conversion_rule: string;
            countries: {
                balance_minor: components["schemas"]["MoneyMinor"];
                correction_vat_minor: components["schemas"]["MoneyMinor"];
                corrections: components["schemas"]["UnionOssCorrection"][];
                current_vat_minor: components["schemas"]["MoneyMinor"];
                included_in_grand_total: boolean;
                member_state_of_consumption: components["schemas"]["Country"];
                /** @description the balance when positive, else 0: a negative balance never offsets another Member State */
                payable_vat_minor: components["schemas"]["MoneyMinor"];
                rows: components["schemas"]["UnionOssRow"][];
                taxable_amount_minor: components["schemas"]["MoneyMinor"];
            }[];
            exchange_rates: components["schemas"]["ExchangeRateUsed"][];
            excluded_source_event_count: number;
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            generated_at: string;
            included_source_event_count: number;
            /** @description the ledger position the figures reflect (the lock's for a locked quarter) */
            ledger_position: number;
            member_state_identification: components["schemas"]["Country"];
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            period_end: string;
            period_key: components["schemas"]["QuarterKey"];
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            period_start: string;
            /** @enum {string} */
            period_status: "open" | "locked" | "filed";
            registration_id: number;
            return_currency: components["schemas"]["Currency"];
            /** @enum {string} */
            scheme_type: "union_oss";
            total_source_event_count: number;
            totals: components["schemas"]["TotalsMinor"];
            warnings: components["schemas"]["UnionOssWarning"][];
        };
        UnionOssCountryMajor: {
            balance: components["schemas"]["MajorAmount"];
            correction_vat: components["schemas"]["MajorAmount"];
            corrections: components["schemas"]["UnionOssCorrectionMajor"][];
            current_vat: components["schemas"]["MajorAmount"];
            included_in_grand_total: boolean;
            member_state_of_consumption: components["schemas"]["Country"];
            payable_vat: components["schemas"]["MajorAmount"];
            rows: components["schemas"]["UnionOssRowMajor"][];
            taxable_amount: components["schemas"]["MajorAmount"];
        };
        /** @description A page of the source events of a Union OSS quarter with their disposition */
        UnionOssEventPage: {
            items: {
                currency: components["schemas"]["Currency"];
                /** @enum {string} */
                customer_type: "b2c" | "b2b";
                /** @enum {string} */
                disposition: "included" | "excluded";
                event_id: string;
                /** @enum {string} */
                event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                /** @description recorded after its own quarter was locked: reported here as a correction */
                late: boolean;
                ledger_sequence: number;
                member_state_of_consumption: string;
                /** @description minor units of the event's own currency */
                net_amount_minor: components["schemas"]["MoneyMinor"];
                /**
                 * Format: date-time
                 * @description RFC 3339 timestamp (UTC)
                 */
                occurred_at: string;
                /** @enum {string|null} */
                reason: "classification_excluded" | "needs_review_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded" | "zero_rate" | "exempt_rate" | "rate_not_in_force" | "imported_goods" | "b2b_supply" | "domestic_supply" | "consumption_outside_eu" | "new_means_of_transport" | "installed_goods" | "b2b_without_vat_number_evidence" | "dispatch_country_missing" | "origin_outside_eu" | "unknown_supply_kind" | null;
                /**
                 * @description needs_review: a data problem to fix; informational: the law keeps the events out of the scheme
                 * @enum {string|null}
                 */
                review: "needs_review" | "informational" | null;
                /** @enum {string} */
                supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                vat_amount_minor: components["schemas"]["MoneyMinor"];
                /** @description b2b_supply: the VIES check that proved the customer a taxable person (GET /v1/vat-numbers/checks) */
                vat_number_check_id: number | null;
                /** @enum {string|null} */
                warning_code: "classification_excluded" | "needs_review_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded" | "unsupported_rate_category_excluded" | "unsupported_supply_kind_excluded" | null;
            }[];
            ledger_position: number;
            next_cursor: components["schemas"]["NextCursor"];
            period_key: components["schemas"]["QuarterKey"];
            /** @enum {string} */
            period_status: "open" | "locked" | "filed";
            /** @enum {string} */
            scheme_type: "union_oss";
            /**
             * @description preview: today's return; sealed_by_lock: what the lock sealed; recomputed_at_lock_position: an older lock, recomputed at its position
             * @enum {string}
             */
            source: "preview" | "sealed_by_lock" | "recomputed_at_lock_position";
        };
        UnionOssRow: {
            member_state_of_consumption: components["schemas"]["Country"];
            /** @description the fixed establishment (2c) or dispatch State (2d); null in 2a and 2b */
            origin_member_state: components["schemas"]["Country"] | null;
            /** @enum {string} */
            rate_type: "STANDARD" | "REDUCED";
            /**
             * @description Annex III section: 2a services and 2b goods from the Member State of identification, 2c services from a fixed establishment, 2d goods dispatched from another Member State
             * @enum {string}
             */
            section: "2a" | "2b" | "2c" | "2d";
            source_event_count: number;
            /** @enum {string} */
            supply_kind: "goods" | "services";
            taxable_amount_minor: components["schemas"]["MoneyMinor"];
            vat_amount_minor: components["schemas"]["MoneyMinor"];
            vat_rate_bps: number;
        };
        UnionOssRowMajor: {
            member_state_of_consumption: components["schemas"]["Country"];
            origin_member_state: components["schemas"]["Country"] | null;
            /** @enum {string} */
            rate_type: "STANDARD" | "REDUCED";
            /**
             * @description Annex III section: 2a services and 2b goods from the Member State of identification, 2c services from a fixed establishment, 2d goods dispatched from another Member State
             * @enum {string}
             */
            section: "2a" | "2b" | "2c" | "2d";
            source_event_count: number;
            /** @enum {string} */
            supply_kind: "goods" | "services";
            taxable_amount: components["schemas"]["MajorAmount"];
            vat_amount: components["schemas"]["MajorAmount"];
            /** @description the VAT rate in percent, two decimals */
            vat_rate_pct: string;
        };
        /** @description The Union OSS quarterly summary preview (minor units of the return currency) */
        UnionOssSummary: {
            balances: components["schemas"]["BalanceMinor"][];
            /** @description how amounts in other currencies are converted (Art. 366(2) of Directive 2006/112/EC) */
            conversion_rule: string;
            corrections: components["schemas"]["UnionOssCorrection"][];
            exchange_rates: components["schemas"]["ExchangeRateUsed"][];
            excluded_source_event_count: number;
            /**
             * Format: date-time
             * @description RFC 3339 timestamp (UTC)
             */
            generated_at: string;
            included_source_event_count: number;
            /** @description the ledger position the figures reflect (the lock's for a locked quarter) */
            ledger_position: number;
            member_state_identification: components["schemas"]["Country"];
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            period_end: string;
            period_key: components["schemas"]["QuarterKey"];
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            period_start: string;
            /** @enum {string} */
            period_status: "open" | "locked" | "filed";
            registration_id: number;
            return_currency: components["schemas"]["Currency"];
            rows: components["schemas"]["UnionOssRow"][];
            /** @enum {string} */
            scheme_type: "union_oss";
            total_source_event_count: number;
            totals: components["schemas"]["TotalsMinor"];
            warnings: components["schemas"]["UnionOssWarning"][];
        };
        /** @description format=json of the quarterly summary export (major units) */
        UnionOssSummaryExport: {
            manifest: components["schemas"]["ExportManifest"];
            report: components["schemas"]["UnionOssSummaryMajor"];
        };
        UnionOssSummaryMajor: {
            balances: components["schemas"]["BalanceMajor"][];
            corrections: components["schemas"]["UnionOssCorrectionMajor"][];
            rows: components["schemas"]["UnionOssRowMajor"][];
            totals: components["schemas"]["TotalsMajor"];
            warnings: components["schemas"]["UnionOssWarning"][];
        };
        /** @description Excluded events of one code and reason */
        UnionOssWarning: {
            /** @enum {string} */
            code: "classification_excluded" | "needs_review_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded" | "unsupported_rate_category_excluded" | "unsupported_supply_kind_excluded";
            count: number;
            /** @enum {string} */
            reason: "classification_excluded" | "needs_review_excluded" | "missing_exchange_rate_excluded" | "correction_reference_missing_excluded" | "correction_reference_invalid_excluded" | "zero_rate" | "exempt_rate" | "rate_not_in_force" | "imported_goods" | "b2b_supply" | "domestic_supply" | "consumption_outside_eu" | "new_means_of_transport" | "installed_goods" | "b2b_without_vat_number_evidence" | "dispatch_country_missing" | "origin_outside_eu" | "unknown_supply_kind";
            /**
             * @description needs_review: a data problem to fix; informational: the law keeps the events out of the scheme
             * @enum {string}
             */
            review: "needs_review" | "informational";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before retrying */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
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
            /** @description Bad Request: api_key_in_query, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checks: {
                            detail: string;
                            name: string;
                            ok: boolean;
                        }[];
                        /** @enum {string} */
                        status: "ready";
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checks: {
                            detail: string;
                            name: string;
                            ok: boolean;
                        }[];
                        missing: string[];
                        /** @enum {string} */
                        status: "not_ready";
                    };
                };
            };
        };
    };
    getV1ClassificationCodesBySchemeByCode: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        applicable_from: string;
                        applicable_to: string | null;
                        approved_at: string;
                        catalog_digest: string;
                        catalog_revision: number;
                        catalog_version: string;
                        display_code: string;
                        excludes: string | null;
                        includes: string | null;
                        legal_act: string;
                        legal_text: string;
                        level: string;
                        normalized_code: string;
                        parent_code: string | null;
                        recorded_at: string;
                        scheme: string;
                        self_explanatory_text: string;
                        source_concept_id: string;
                        source_url: string;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_catalog_version, invalid_code, invalid_legal_date, invalid_path, invalid_query, invalid_request, invalid_scheme, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_catalog_version" | "invalid_code" | "invalid_legal_date" | "invalid_path" | "invalid_query" | "invalid_request" | "invalid_scheme" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Not Found: catalog_unavailable, code_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "catalog_unavailable" | "code_not_found";
                    };
                };
            };
            /** @description Unprocessable Entity: catalog_version_outside_legal_date */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "catalog_version_outside_legal_date";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ClassificationCorrectionReviews: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            created_at: string;
                            event_id: string;
                            id: string;
                            integration_id: number | null;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            occurred_at: string;
                            order_reference: string | null;
                            product_reference: string | null;
                            /** @description the classification the reprocessing proposed (as the ledger recorded it) */
                            proposed: {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            reason: "union_oss_period_locked" | "order_too_large" | "manual_decision";
                            resolution: {
                                /** @enum {string} */
                                action: "apply" | "dismiss";
                                decision_id: string | null;
                                note: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                resolved_at: string;
                                resolved_by_api_key_id: number;
                            } | null;
                            /** @enum {string} */
                            status: "open" | "applied" | "dismissed";
                            supply_event_id: string;
                        }[];
                        next_cursor: components["schemas"]["NextCursor"];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_cursor, invalid_limit, invalid_order_reference, invalid_product_reference, invalid_query, invalid_reason, invalid_request, invalid_status, invalid_supply_event_id, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_cursor" | "invalid_limit" | "invalid_order_reference" | "invalid_product_reference" | "invalid_query" | "invalid_reason" | "invalid_request" | "invalid_status" | "invalid_supply_event_id" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    postV1ClassificationCorrectionReviewsByIdResolve: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        event_id: string;
                        id: string;
                        integration_id: number | null;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        occurred_at: string;
                        order_reference: string | null;
                        product_reference: string | null;
                        /** @description the classification the reprocessing proposed (as the ledger recorded it) */
                        proposed: {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        reason: "union_oss_period_locked" | "order_too_large" | "manual_decision";
                        resolution: {
                            /** @enum {string} */
                            action: "apply" | "dismiss";
                            decision_id: string | null;
                            note: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            resolved_at: string;
                            resolved_by_api_key_id: number;
                        } | null;
                        resolved_with: string[];
                        /** @enum {string} */
                        status: "open" | "applied" | "dismissed";
                        supply_event_id: string;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_action, invalid_json, invalid_note, invalid_path, invalid_request, invalid_url, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_action" | "invalid_json" | "invalid_note" | "invalid_path" | "invalid_request" | "invalid_url" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: correction_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "correction_not_found";
                    };
                };
            };
            /** @description Conflict: correction_already_resolved, correction_stale, period_locked */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "correction_already_resolved" | "correction_stale" | "period_locked";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ComplianceNotifications: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Notification"][];
                        next_cursor: components["schemas"]["NextCursor"];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_cursor, invalid_limit, invalid_query, invalid_request, invalid_unread, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_cursor" | "invalid_limit" | "invalid_query" | "invalid_request" | "invalid_unread" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1ComplianceNotificationsByIdRead: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Notification"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_json, invalid_path, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_json" | "invalid_path" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: notification_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "notification_not_found";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ComplianceThresholdStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        article_59c_applicability_status: string;
                        checks: {
                            currency: string;
                            currency_scale: number;
                            current_comparison: string;
                            current_minor: components["schemas"]["MoneyMinor"];
                            /** @description a proven crossing; superseded_* only on a crossing a later event replaced */
                            current_year_crossing: {
                                cumulative_minor: components["schemas"]["MoneyMinor"];
                                currency: string;
                                establishment_country: string;
                                event_amount_minor: components["schemas"]["MoneyMinor"];
                                event_id: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                occurred_at: string;
                                policy_version: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                proven_at: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                recorded_at: string;
                                release_version: string;
                                sequence: number;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                superseded_at?: string;
                                superseded_by_event_id?: string | null;
                                threshold_minor: components["schemas"]["MoneyMinor"];
                                year: number;
                            } | null;
                            current_year_crossing_history: {
                                cumulative_minor: components["schemas"]["MoneyMinor"];
                                currency: string;
                                establishment_country: string;
                                event_amount_minor: components["schemas"]["MoneyMinor"];
                                event_id: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                occurred_at: string;
                                policy_version: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                proven_at: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                recorded_at: string;
                                release_version: string;
                                sequence: number;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                superseded_at?: string;
                                superseded_by_event_id?: string | null;
                                threshold_minor: components["schemas"]["MoneyMinor"];
                                year: number;
                            }[];
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            cutoff_at: string | null;
                            establishment_country: string;
                            historical_crossing_proven: boolean;
                            percentage_used: number;
                            policy_version: string;
                            /** @description a proven crossing; superseded_* only on a crossing a later event replaced */
                            preceding_year_crossing: {
                                cumulative_minor: components["schemas"]["MoneyMinor"];
                                currency: string;
                                establishment_country: string;
                                event_amount_minor: components["schemas"]["MoneyMinor"];
                                event_id: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                occurred_at: string;
                                policy_version: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                proven_at: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                recorded_at: string;
                                release_version: string;
                                sequence: number;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                superseded_at?: string;
                                superseded_by_event_id?: string | null;
                                threshold_minor: components["schemas"]["MoneyMinor"];
                                year: number;
                            } | null;
                            preceding_year_crossing_history: {
                                cumulative_minor: components["schemas"]["MoneyMinor"];
                                currency: string;
                                establishment_country: string;
                                event_amount_minor: components["schemas"]["MoneyMinor"];
                                event_id: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                occurred_at: string;
                                policy_version: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                proven_at: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                recorded_at: string;
                                release_version: string;
                                sequence: number;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                superseded_at?: string;
                                superseded_by_event_id?: string | null;
                                threshold_minor: components["schemas"]["MoneyMinor"];
                                year: number;
                            }[];
                            previous_comparison: string;
                            previous_year_event_count: number;
                            previous_year_minor: components["schemas"]["MoneyMinor"];
                            primary_treatment_driver: string;
                            release_version: string;
                            remaining_minor: components["schemas"]["MoneyMinor"];
                            source_event_count: number;
                            threshold_minor: components["schemas"]["MoneyMinor"];
                            treatment_triggers: string[];
                        }[];
                        current_year: number;
                        current_year_blocking_event_count: number;
                        current_year_candidate_event_count: number;
                        current_year_coverage: {
                            currency: string;
                            disposition: string;
                            event_count: number;
                            evidence_quality: string;
                            materiality: string;
                            net_minor: components["schemas"]["MoneyMinor"];
                            reason: string;
                        }[];
                        current_year_excluded_event_count: number;
                        disclaimer: string;
                        eur_only: boolean;
                        evidence_status: string;
                        filing_readiness: string;
                        issues: string[];
                        ledger_head: number;
                        ledger_position: number;
                        preceding_year_blocking_event_count: number;
                        preceding_year_candidate_event_count: number;
                        preceding_year_coverage: {
                            currency: string;
                            disposition: string;
                            event_count: number;
                            evidence_quality: string;
                            materiality: string;
                            net_minor: components["schemas"]["MoneyMinor"];
                            reason: string;
                        }[];
                        preceding_year_excluded_event_count: number;
                        threshold_evidence_status: string;
                        unconverted_currencies: string[];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ComplianceThresholdStatusSeries: {
        parameters: {
            query?: {
                /** @description calendar year, default the current one (UTC); not later (400 year_after_current_year) */
                year?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: date
                         * @description YYYY-MM-DD
                         */
                        cutoff_date: string;
                        ledger_position: number;
                        series: {
                            /** @description a proven crossing; superseded_* only on a crossing a later event replaced */
                            crossing: {
                                cumulative_minor: components["schemas"]["MoneyMinor"];
                                currency: string;
                                establishment_country: string;
                                event_amount_minor: components["schemas"]["MoneyMinor"];
                                event_id: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                occurred_at: string;
                                policy_version: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                proven_at: string;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                recorded_at: string;
                                release_version: string;
                                sequence: number;
                                /**
                                 * Format: date-time
                                 * @description RFC 3339 timestamp
                                 */
                                superseded_at?: string;
                                superseded_by_event_id?: string | null;
                                threshold_minor: components["schemas"]["MoneyMinor"];
                                year: number;
                            } | null;
                            currency: string;
                            currency_scale: number;
                            establishment_country: string;
                            points: {
                                cumulative_minor: components["schemas"]["MoneyMinor"];
                                /**
                                 * Format: date
                                 * @description YYYY-MM-DD
                                 */
                                date: string;
                                day_minor: components["schemas"]["MoneyMinor"];
                                event_count: number;
                            }[];
                            threshold_minor: components["schemas"]["MoneyMinor"];
                        }[];
                        year: number;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_query, invalid_request, invalid_url, invalid_year, malformed_request, unexpected_body, unknown_parameter, year_after_current_year */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_query" | "invalid_request" | "invalid_url" | "invalid_year" | "malformed_request" | "unexpected_body" | "unknown_parameter" | "year_after_current_year";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1IntegrationsByIntegrationIdProductCodeAssignments: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            assignment_id: string;
                            attestation: {
                                attested_by: string;
                                statement: string;
                            } | null;
                            backdated: boolean;
                            catalog_digest: string;
                            catalog_version: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            created_at: string;
                            display_code: string;
                            exact_code: string;
                            head: boolean;
                            impact_review: string | null;
                            integration_id: number;
                            product_reference: string;
                            revision: number;
                            /** @enum {string} */
                            scheme: "cn" | "cpa";
                            /** @enum {string} */
                            state: "submitted" | "validated" | "archived";
                            valid_from: string;
                            valid_to: string | null;
                            valid_to_source: string;
                            variant_reference: string | null;
                        }[];
                        next_cursor: components["schemas"]["NextCursor"];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_cursor, invalid_limit, invalid_path, invalid_product_reference, invalid_query, invalid_request, invalid_state, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_cursor" | "invalid_limit" | "invalid_path" | "invalid_product_reference" | "invalid_query" | "invalid_request" | "invalid_state" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: integration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "integration_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    postV1IntegrationsByIntegrationIdProductCodeAssignments: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        assignment_id: string;
                        attestation: {
                            attested_by: string;
                            statement: string;
                        } | null;
                        backdated: boolean;
                        catalog_digest: string;
                        catalog_version: string;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        display_code: string;
                        exact_code: string;
                        head: boolean;
                        impact_review: string | null;
                        integration_id: number;
                        product_reference: string;
                        revision: number;
                        /** @enum {string} */
                        scheme: "cn" | "cpa";
                        /** @enum {string} */
                        state: "submitted" | "validated" | "archived";
                        valid_from: string;
                        valid_to: string | null;
                        valid_to_source: string;
                        variant_reference: string | null;
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        assignment_id: string;
                        attestation: {
                            attested_by: string;
                            statement: string;
                        } | null;
                        backdated: boolean;
                        catalog_digest: string;
                        catalog_version: string;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        display_code: string;
                        exact_code: string;
                        head: boolean;
                        impact_review: string | null;
                        integration_id: number;
                        product_reference: string;
                        revision: number;
                        /** @enum {string} */
                        scheme: "cn" | "cpa";
                        /** @enum {string} */
                        state: "submitted" | "validated" | "archived";
                        valid_from: string;
                        valid_to: string | null;
                        valid_to_source: string;
                        variant_reference: string | null;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_attestation, invalid_catalog_version, invalid_code, invalid_json, invalid_path, invalid_product_reference, invalid_request, invalid_requested_valid_from, invalid_requested_valid_to, invalid_scheme, invalid_url, invalid_variant_reference, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_attestation" | "invalid_catalog_version" | "invalid_code" | "invalid_json" | "invalid_path" | "invalid_product_reference" | "invalid_request" | "invalid_requested_valid_from" | "invalid_requested_valid_to" | "invalid_scheme" | "invalid_url" | "invalid_variant_reference" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: integration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "integration_not_found";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: assignment_outside_catalog_interval, assignment_revision_limit_reached, attestation_required, catalog_unavailable, code_not_found */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "assignment_outside_catalog_interval" | "assignment_revision_limit_reached" | "attestation_required" | "catalog_unavailable" | "code_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    getV1IntegrationsByIntegrationIdProductCodeAssignmentsByAssignmentId: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        assignment_id: string;
                        attestation: {
                            attested_by: string;
                            statement: string;
                        } | null;
                        backdated: boolean;
                        catalog_digest: string;
                        catalog_version: string;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        display_code: string;
                        exact_code: string;
                        head: boolean;
                        impact_review: string | null;
                        integration_id: number;
                        product_reference: string;
                        revision: number;
                        revisions: {
                            assignment_id: string;
                            attestation: {
                                attested_by: string;
                                statement: string;
                            } | null;
                            backdated: boolean;
                            catalog_digest: string;
                            catalog_version: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            created_at: string;
                            display_code: string;
                            exact_code: string;
                            head: boolean;
                            impact_review: string | null;
                            integration_id: number;
                            product_reference: string;
                            revision: number;
                            /** @enum {string} */
                            scheme: "cn" | "cpa";
                            /** @enum {string} */
                            state: "submitted" | "validated" | "archived";
                            valid_from: string;
                            valid_to: string | null;
                            valid_to_source: string;
                            variant_reference: string | null;
                        }[];
                        /** @enum {string} */
                        scheme: "cn" | "cpa";
                        /** @enum {string} */
                        state: "submitted" | "validated" | "archived";
                        valid_from: string;
                        valid_to: string | null;
                        valid_to_source: string;
                        variant_reference: string | null;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_path, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_path" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: assignment_not_found, integration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "assignment_not_found" | "integration_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    postV1IntegrationsByIntegrationIdProductCodeAssignmentsByAssignmentIdArchive: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        assignment_id: string;
                        attestation: {
                            attested_by: string;
                            statement: string;
                        } | null;
                        backdated: boolean;
                        catalog_digest: string;
                        catalog_version: string;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        display_code: string;
                        exact_code: string;
                        head: boolean;
                        impact_review: string | null;
                        integration_id: number;
                        product_reference: string;
                        revision: number;
                        /** @enum {string} */
                        scheme: "cn" | "cpa";
                        /** @enum {string} */
                        state: "submitted" | "validated" | "archived";
                        valid_from: string;
                        valid_to: string | null;
                        valid_to_source: string;
                        variant_reference: string | null;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_json, invalid_path, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_json" | "invalid_path" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: assignment_not_found, integration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "assignment_not_found" | "integration_not_found";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: assignment_already_validated, assignment_archived, assignment_revision_limit_reached, code_not_found */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "assignment_already_validated" | "assignment_archived" | "assignment_revision_limit_reached" | "code_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    postV1IntegrationsByIntegrationIdProductCodeAssignmentsByAssignmentIdValidate: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        assignment_id: string;
                        attestation: {
                            attested_by: string;
                            statement: string;
                        } | null;
                        backdated: boolean;
                        catalog_digest: string;
                        catalog_version: string;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        display_code: string;
                        exact_code: string;
                        head: boolean;
                        impact_review: string | null;
                        integration_id: number;
                        product_reference: string;
                        revision: number;
                        /** @enum {string} */
                        scheme: "cn" | "cpa";
                        /** @enum {string} */
                        state: "submitted" | "validated" | "archived";
                        valid_from: string;
                        valid_to: string | null;
                        valid_to_source: string;
                        variant_reference: string | null;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_json, invalid_path, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_json" | "invalid_path" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: assignment_not_found, integration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "assignment_not_found" | "integration_not_found";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: assignment_already_validated, assignment_archived, assignment_revision_limit_reached, code_not_found */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "assignment_already_validated" | "assignment_archived" | "assignment_revision_limit_reached" | "code_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsCountryVatBreakdown: {
        parameters: {
            query: {
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnionOssCountryBreakdown"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Unprocessable Entity: registration_conflict, registration_required, vat_rate_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_conflict" | "registration_required" | "vat_rate_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsCountryVatBreakdownExport: {
        parameters: {
            query: {
                /** @description 1 (the default and only version) */
                export_version?: string;
                /** @description csv: the manifest fields on every row, the conversion rule and scope note as codes (their text is in the json manifest); json: { manifest, report }; oss-return: the Annex III return document (JSON; summary only); bzst-csv: the German BZSt upload file (summary only, Member State of identification DE) */
                format: "csv" | "json" | "oss-return" | "bzst-csv";
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnionOssBreakdownExport"];
                    "text/csv": string;
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_export_version, invalid_format, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_export_version" | "invalid_format" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Unprocessable Entity: bzst_file_refused, format_unavailable, registration_conflict, registration_required, vat_rate_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "bzst_file_refused" | "format_unavailable" | "registration_conflict" | "registration_required" | "vat_rate_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsFilingCalendar: {
        parameters: {
            query?: {
                /** @description first day (inclusive): periods ending on or after it; default the earliest active or ended OSS/IOSS registration */
                from?: string;
                /** @description last day (inclusive): periods starting on or before it; default today (UTC); at most ten years after from */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilingCalendar"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_date_range, invalid_from, invalid_query, invalid_request, invalid_to, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_date_range" | "invalid_from" | "invalid_query" | "invalid_request" | "invalid_to" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsFilingPrep: {
        parameters: {
            query: {
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilingPrep"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsIossMonthlyEvents: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IossEventPage"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_cursor, invalid_disposition, invalid_limit, invalid_member_state, invalid_month, invalid_query, invalid_reason, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_cursor" | "invalid_disposition" | "invalid_limit" | "invalid_member_state" | "invalid_month" | "invalid_query" | "invalid_reason" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsLockedReturnPeriodsUnionOss: {
        parameters: {
            query?: {
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period?: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description with `period`: that quarter when it is locked, else null */
                        current_period?: components["schemas"]["LockedPeriod"] | null;
                        items: components["schemas"]["LockedPeriod"][];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1ReportsLockedReturnPeriodsUnionOss: {
        parameters: {
            query: {
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockedPeriod"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_json, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_json" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Conflict: period_already_locked, period_not_ended */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "period_already_locked" | "period_not_ended";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: registration_conflict, registration_required, vat_rate_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_conflict" | "registration_required" | "vat_rate_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: ledger_unavailable, projection_lagging, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "ledger_unavailable" | "projection_lagging" | "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsLockedReturnPeriodsUnionOssExportsByExportId: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountantReport"] | components["schemas"]["OssReturnDocument"] | components["schemas"]["BzstManifest"];
                    "application/pdf": string;
                    "text/csv": string;
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_path, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_path" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: export_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "export_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1ReportsLockedReturnPeriodsUnionOssFiled: {
        parameters: {
            query: {
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the day the return was submitted: from the day after the quarter to today (UTC) */
                    filed_on?: string;
                    /** @description a note of the filer (one line) */
                    note?: string;
                    /** @description the reference the tax office's portal gave the submission */
                    submission_reference?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockedPeriod"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_body, invalid_filed_on, invalid_json, invalid_note, invalid_period, invalid_query, invalid_request, invalid_submission_reference, invalid_url, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_body" | "invalid_filed_on" | "invalid_json" | "invalid_note" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_submission_reference" | "invalid_url" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Conflict: period_not_ended, period_not_locked */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "period_not_ended" | "period_not_locked";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsMultiJurisdiction: {
        parameters: {
            query: {
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MultiJurisdiction"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Unprocessable Entity: registration_conflict, registration_required, vat_rate_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_conflict" | "registration_required" | "vat_rate_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsOssAccountantReport: {
        parameters: {
            query: {
                /** @description json (default) or pdf (printable, fonts embedded) */
                format?: "json" | "pdf";
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountantReport"];
                    "application/pdf": string;
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_format, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_format" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Unprocessable Entity: registration_conflict, registration_required, vat_rate_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_conflict" | "registration_required" | "vat_rate_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsOssQuarterlySummary: {
        parameters: {
            query: {
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnionOssSummary"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Unprocessable Entity: registration_conflict, registration_required, vat_rate_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_conflict" | "registration_required" | "vat_rate_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsOssQuarterlySummaryEvents: {
        parameters: {
            query: {
                cursor?: string;
                disposition?: "included" | "excluded";
                /** @description 1-500, default 100 */
                limit?: string;
                /** @description Member State of consumption (EL for Greece) */
                member_state?: string;
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
                /** @description a warning code (e.g. unsupported_supply_kind_excluded) or a reason (e.g. domestic_supply) */
                reason?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnionOssEventPage"];
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_cursor, invalid_disposition, invalid_limit, invalid_member_state, invalid_period, invalid_query, invalid_reason, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_cursor" | "invalid_disposition" | "invalid_limit" | "invalid_member_state" | "invalid_period" | "invalid_query" | "invalid_reason" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Unprocessable Entity: registration_conflict, registration_required, vat_rate_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_conflict" | "registration_required" | "vat_rate_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1ReportsOssQuarterlySummaryExport: {
        parameters: {
            query: {
                /** @description 1 (the default and only version) */
                export_version?: string;
                /** @description csv: the manifest fields on every row, the conversion rule and scope note as codes (their text is in the json manifest); json: { manifest, report }; oss-return: the Annex III return document (JSON; summary only); bzst-csv: the German BZSt upload file (summary only, Member State of identification DE) */
                format: "csv" | "json" | "oss-return" | "bzst-csv";
                /** @description Quarter key YYYY-Qn, from 2021-Q3 (when the Union OSS scheme began) to 9999-Q3 (the last one due within year 9999) */
                period: components["schemas"]["QuarterKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnionOssSummaryExport"] | components["schemas"]["OssReturnDocument"];
                    "text/csv": string;
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_export_version, invalid_format, invalid_period, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_export_version" | "invalid_format" | "invalid_period" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Unprocessable Entity: bzst_file_refused, format_unavailable, registration_conflict, registration_required, vat_rate_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "bzst_file_refused" | "format_unavailable" | "registration_conflict" | "registration_required" | "vat_rate_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1Sessions: {
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
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account_id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** @description Send as the X-CSRF-Token header on every write made with this session's cookie */
                        csrf_token: string;
                        /**
                         * Format: date-time
                         * @description absolute expiry
                         */
                        expires_at: string;
                        /**
                         * Format: date-time
                         * @description ends earlier when unused until then
                         */
                        idle_expires_at: string;
                        idle_timeout_seconds: number;
                        /** @enum {string} */
                        scope: "full" | "read-only";
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_api_key, invalid_json, invalid_query, invalid_request, invalid_url, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_api_key" | "invalid_json" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1SessionsCurrent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account_id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** @description Send as the X-CSRF-Token header on every write made with this session's cookie */
                        csrf_token: string;
                        /**
                         * Format: date-time
                         * @description absolute expiry
                         */
                        expires_at: string;
                        /**
                         * Format: date-time
                         * @description ends earlier when unused until then
                         */
                        idle_expires_at: string;
                        idle_timeout_seconds: number;
                        /** @enum {string} */
                        scope: "full" | "read-only";
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: no_session */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "no_session";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    deleteV1SessionsCurrent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: api_key_in_query, invalid_json, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_json" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: no_session */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "no_session";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1Sources: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        activeCount: number;
                        items: {
                            active: boolean;
                            channel_type: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            created_at: string;
                            default_country: string | null;
                            default_currency: string | null;
                            dispatch_country: string | null;
                            display_name: string;
                            id: number;
                            marketplace_deemed_supplier: boolean;
                            platform: string | null;
                            source_key: string;
                            supplier_establishment_country: string | null;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            updated_at: string;
                        }[];
                        maxProfiles: number;
                        maxStoredProfiles: number;
                        storedCount: number;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1Sources: {
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
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        active: boolean;
                        channel_type: string;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        default_country: string | null;
                        default_currency: string | null;
                        dispatch_country: string | null;
                        display_name: string;
                        id: number;
                        marketplace_deemed_supplier: boolean;
                        platform: string | null;
                        source_key: string;
                        supplier_establishment_country: string | null;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        updated_at: string;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_active, invalid_channel_type, invalid_default_country, invalid_default_currency, invalid_dispatch_country, invalid_display_name, invalid_json, invalid_marketplace_deemed_supplier, invalid_platform, invalid_request, invalid_source_key, invalid_supplier_establishment_country, invalid_url, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_active" | "invalid_channel_type" | "invalid_default_country" | "invalid_default_currency" | "invalid_dispatch_country" | "invalid_display_name" | "invalid_json" | "invalid_marketplace_deemed_supplier" | "invalid_platform" | "invalid_request" | "invalid_source_key" | "invalid_supplier_establishment_country" | "invalid_url" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Conflict: source_key_exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "source_key_exists";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: active_profile_limit_reached, stored_profile_limit_reached */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "active_profile_limit_reached" | "stored_profile_limit_reached";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    patchV1SourcesById: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        active: boolean;
                        channel_type: string;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        default_country: string | null;
                        default_currency: string | null;
                        dispatch_country: string | null;
                        display_name: string;
                        id: number;
                        marketplace_deemed_supplier: boolean;
                        platform: string | null;
                        source_key: string;
                        supplier_establishment_country: string | null;
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        updated_at: string;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_active, invalid_channel_type, invalid_default_country, invalid_default_currency, invalid_dispatch_country, invalid_display_name, invalid_json, invalid_marketplace_deemed_supplier, invalid_path, invalid_platform, invalid_request, invalid_supplier_establishment_country, invalid_url, malformed_request, source_key_immutable, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_active" | "invalid_channel_type" | "invalid_default_country" | "invalid_default_currency" | "invalid_dispatch_country" | "invalid_display_name" | "invalid_json" | "invalid_marketplace_deemed_supplier" | "invalid_path" | "invalid_platform" | "invalid_request" | "invalid_supplier_establishment_country" | "invalid_url" | "malformed_request" | "source_key_immutable" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: source_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "source_not_found";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: active_profile_limit_reached */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "active_profile_limit_reached";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1SourcesUnknown: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            first_seen: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            last_seen: string;
                            source_id: string;
                            transaction_count: number;
                        }[];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_limit, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_limit" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1SupplyEvents: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            calculation_id: string | null;
                            /** @enum {string} */
                            classification_status: "classified" | "needs_review" | "excluded";
                            consignment_reference: string | null;
                            country_of_consumption: components["schemas"]["Country"];
                            currency: components["schemas"]["Currency"];
                            /** @enum {string} */
                            customer_type: "b2c" | "b2b";
                            customer_vat_number_masked: string | null;
                            dispatch_country: string | null;
                            event_id: string;
                            /** @enum {string} */
                            event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                            excise_goods: boolean | null;
                            id: string;
                            integration_id: number | null;
                            intrinsic_value_eur_minor: components["schemas"]["NullableMoneyMinor"];
                            net_amount_minor: components["schemas"]["MoneyMinor"];
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            occurred_at: string;
                            order_reference: string | null;
                            original_event_id: string | null;
                            product_reference: string | null;
                            /** @enum {string} */
                            rate_category: "standard" | "reduced" | "super_reduced" | "parking" | "zero" | "exempt";
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            recorded_at: string;
                            region: string | null;
                            sequence: number;
                            source_id: string | null;
                            supplier_establishment_country: string | null;
                            /** @enum {string} */
                            supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                            tax_class_id: string | null;
                            third_country_origin: string | null;
                            variant_reference: string | null;
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                            vat_rate_bps: number;
                        }[];
                        next_cursor: components["schemas"]["NextCursor"];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_classification_status, invalid_country_of_consumption, invalid_cursor, invalid_date, invalid_date_range, invalid_event_type, invalid_limit, invalid_query, invalid_request, invalid_source_id, invalid_supply_kind, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_classification_status" | "invalid_country_of_consumption" | "invalid_cursor" | "invalid_date" | "invalid_date_range" | "invalid_event_type" | "invalid_limit" | "invalid_query" | "invalid_request" | "invalid_source_id" | "invalid_supply_kind" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1SupplyEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description optional: commits this v1 calculation of the account (its country, currency, amounts and rate must match or be omitted) */
                    calculation_id?: string | null;
                    /**
                     * @description classified, needs_review, excluded
                     * @enum {string}
                     */
                    classification_status: "classified" | "needs_review" | "excluded";
                    /** @description imported_goods only */
                    consignment_reference?: string | null;
                    /** @description ISO 3166-1 alpha-2 (GR for Greece) */
                    country_of_consumption: string;
                    /** @description ISO 4217 with minor units */
                    currency: string;
                    /**
                     * @description b2c or b2b
                     * @enum {string}
                     */
                    customer_type: "b2c" | "b2b";
                    /** @description optional, b2b only: the customer's VAT number with its country prefix (EL for Greece); encrypted at rest, never returned (check it first: POST /v1/vat-numbers/check) */
                    customer_vat_number?: string | null;
                    /** @description goods: where the dispatch begins */
                    dispatch_country?: string | null;
                    /** @description caller's id, 1-100 of letters, digits, _ - / . :; unique per account */
                    event_id: string;
                    /**
                     * @description sale, refund, cancellation, credit_note, adjustment
                     * @enum {string}
                     */
                    event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                    /** @description imported_goods only */
                    excise_goods?: boolean | null;
                    /** @description optional: one of the account's integrations */
                    integration_id?: number | null;
                    /** @description imported_goods only */
                    intrinsic_value_eur_minor?: number | null;
                    /** @description signed minor units: a sale >= 0; refund, cancellation, credit note <= 0 */
                    net_amount_minor: number;
                    /** @description the tax point: YYYY-MM-DD (midnight UTC) or RFC 3339 */
                    occurred_at: string;
                    /** @description optional, 1-200 characters */
                    order_reference?: string | null;
                    /** @description for every non-sale: the event_id of the sale it corrects; null or absent on a sale */
                    original_event_id?: string | null;
                    /** @description optional, 1-200 characters */
                    product_reference?: string | null;
                    /**
                     * @description standard, reduced, super_reduced, parking, zero, exempt
                     * @enum {string}
                     */
                    rate_category: "standard" | "reduced" | "super_reduced" | "parking" | "zero" | "exempt";
                    /** @description optional ISO 3166-2 region with rates of its own reported under the Member State: PT-20 (Azores), PT-30 (Madeira) */
                    region?: string | null;
                    /** @description optional raw source tag (as X-Source-ID) */
                    source_id?: string | null;
                    /** @description where the supplying establishment is */
                    supplier_establishment_country?: string | null;
                    /**
                     * @description goods, services, imported_goods, new_means_of_transport, installed_goods
                     * @enum {string}
                     */
                    supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                    /** @description optional: a class of GET /v1/tax-classes (else unknown_tax_class) */
                    tax_class_id?: string | null;
                    /** @description imported_goods only: non-EU country */
                    third_country_origin?: string | null;
                    /** @description optional, 1-200 characters */
                    variant_reference?: string | null;
                    /** @description half-up(net x bps / 10000) within one minor unit */
                    vat_amount_minor: number;
                    /** @description 0 to 10000 */
                    vat_rate_bps: number;
                } | {
                    events: {
                        /** @description optional: commits this v1 calculation of the account (its country, currency, amounts and rate must match or be omitted) */
                        calculation_id?: string | null;
                        /**
                         * @description classified, needs_review, excluded
                         * @enum {string}
                         */
                        classification_status: "classified" | "needs_review" | "excluded";
                        /** @description imported_goods only */
                        consignment_reference?: string | null;
                        /** @description ISO 3166-1 alpha-2 (GR for Greece) */
                        country_of_consumption: string;
                        /** @description ISO 4217 with minor units */
                        currency: string;
                        /**
                         * @description b2c or b2b
                         * @enum {string}
                         */
                        customer_type: "b2c" | "b2b";
                        /** @description optional, b2b only: the customer's VAT number with its country prefix (EL for Greece); encrypted at rest, never returned (check it first: POST /v1/vat-numbers/check) */
                        customer_vat_number?: string | null;
                        /** @description goods: where the dispatch begins */
                        dispatch_country?: string | null;
                        /** @description caller's id, 1-100 of letters, digits, _ - / . :; unique per account */
                        event_id: string;
                        /**
                         * @description sale, refund, cancellation, credit_note, adjustment
                         * @enum {string}
                         */
                        event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                        /** @description imported_goods only */
                        excise_goods?: boolean | null;
                        /** @description optional: one of the account's integrations */
                        integration_id?: number | null;
                        /** @description imported_goods only */
                        intrinsic_value_eur_minor?: number | null;
                        /** @description signed minor units: a sale >= 0; refund, cancellation, credit note <= 0 */
                        net_amount_minor: number;
                        /** @description the tax point: YYYY-MM-DD (midnight UTC) or RFC 3339 */
                        occurred_at: string;
                        /** @description optional, 1-200 characters */
                        order_reference?: string | null;
                        /** @description for every non-sale: the event_id of the sale it corrects; null or absent on a sale */
                        original_event_id?: string | null;
                        /** @description optional, 1-200 characters */
                        product_reference?: string | null;
                        /**
                         * @description standard, reduced, super_reduced, parking, zero, exempt
                         * @enum {string}
                         */
                        rate_category: "standard" | "reduced" | "super_reduced" | "parking" | "zero" | "exempt";
                        /** @description optional ISO 3166-2 region with rates of its own reported under the Member State: PT-20 (Azores), PT-30 (Madeira) */
                        region?: string | null;
                        /** @description optional raw source tag (as X-Source-ID) */
                        source_id?: string | null;
                        /** @description where the supplying establishment is */
                        supplier_establishment_country?: string | null;
                        /**
                         * @description goods, services, imported_goods, new_means_of_transport, installed_goods
                         * @enum {string}
                         */
                        supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                        /** @description optional: a class of GET /v1/tax-classes (else unknown_tax_class) */
                        tax_class_id?: string | null;
                        /** @description imported_goods only: non-EU country */
                        third_country_origin?: string | null;
                        /** @description optional, 1-200 characters */
                        variant_reference?: string | null;
                        /** @description half-up(net x bps / 10000) within one minor unit */
                        vat_amount_minor: number;
                        /** @description 0 to 10000 */
                        vat_rate_bps: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        calculation_id: string | null;
                        /** @enum {string} */
                        classification_status: "classified" | "needs_review" | "excluded";
                        consignment_reference: string | null;
                        country_of_consumption: components["schemas"]["Country"];
                        currency: components["schemas"]["Currency"];
                        /** @enum {string} */
                        customer_type: "b2c" | "b2b";
                        customer_vat_number_masked: string | null;
                        dispatch_country: string | null;
                        event_id: string;
                        /** @enum {string} */
                        event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                        excise_goods: boolean | null;
                        id: string;
                        integration_id: number | null;
                        intrinsic_value_eur_minor: components["schemas"]["NullableMoneyMinor"];
                        net_amount_minor: components["schemas"]["MoneyMinor"];
                        /** @description a new event of a locked quarter: the quarter it corrects and the return that reports it */
                        notice?: {
                            code: string;
                            corrects_period: string;
                            detail: string;
                            reported_in_period: string;
                        };
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        occurred_at: string;
                        order_reference: string | null;
                        original_event_id: string | null;
                        product_reference: string | null;
                        /** @enum {string} */
                        rate_category: "standard" | "reduced" | "super_reduced" | "parking" | "zero" | "exempt";
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        recorded_at: string;
                        region: string | null;
                        sequence: number;
                        source_id: string | null;
                        supplier_establishment_country: string | null;
                        /** @enum {string} */
                        supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                        tax_class_id: string | null;
                        third_country_origin: string | null;
                        variant_reference: string | null;
                        vat_amount_minor: components["schemas"]["MoneyMinor"];
                        vat_rate_bps: number;
                    } | {
                        committed: number;
                        existing: number;
                        items: {
                            calculation_id: string | null;
                            /** @enum {string} */
                            classification_status: "classified" | "needs_review" | "excluded";
                            consignment_reference: string | null;
                            country_of_consumption: components["schemas"]["Country"];
                            currency: components["schemas"]["Currency"];
                            /** @enum {string} */
                            customer_type: "b2c" | "b2b";
                            customer_vat_number_masked: string | null;
                            dispatch_country: string | null;
                            event_id: string;
                            /** @enum {string} */
                            event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                            excise_goods: boolean | null;
                            id: string;
                            integration_id: number | null;
                            intrinsic_value_eur_minor: components["schemas"]["NullableMoneyMinor"];
                            net_amount_minor: components["schemas"]["MoneyMinor"];
                            /** @description a new event of a locked quarter: the quarter it corrects and the return that reports it */
                            notice?: {
                                code: string;
                                corrects_period: string;
                                detail: string;
                                reported_in_period: string;
                            };
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            occurred_at: string;
                            order_reference: string | null;
                            original_event_id: string | null;
                            product_reference: string | null;
                            /** @enum {string} */
                            rate_category: "standard" | "reduced" | "super_reduced" | "parking" | "zero" | "exempt";
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            recorded_at: string;
                            region: string | null;
                            sequence: number;
                            source_id: string | null;
                            /** @enum {string} */
                            status: "committed" | "existing";
                            supplier_establishment_country: string | null;
                            /** @enum {string} */
                            supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                            tax_class_id: string | null;
                            third_country_origin: string | null;
                            variant_reference: string | null;
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                            vat_rate_bps: number;
                        }[];
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        calculation_id: string | null;
                        /** @enum {string} */
                        classification_status: "classified" | "needs_review" | "excluded";
                        consignment_reference: string | null;
                        country_of_consumption: components["schemas"]["Country"];
                        currency: components["schemas"]["Currency"];
                        /** @enum {string} */
                        customer_type: "b2c" | "b2b";
                        customer_vat_number_masked: string | null;
                        dispatch_country: string | null;
                        event_id: string;
                        /** @enum {string} */
                        event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                        excise_goods: boolean | null;
                        id: string;
                        integration_id: number | null;
                        intrinsic_value_eur_minor: components["schemas"]["NullableMoneyMinor"];
                        net_amount_minor: components["schemas"]["MoneyMinor"];
                        /** @description a new event of a locked quarter: the quarter it corrects and the return that reports it */
                        notice?: {
                            code: string;
                            corrects_period: string;
                            detail: string;
                            reported_in_period: string;
                        };
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        occurred_at: string;
                        order_reference: string | null;
                        original_event_id: string | null;
                        product_reference: string | null;
                        /** @enum {string} */
                        rate_category: "standard" | "reduced" | "super_reduced" | "parking" | "zero" | "exempt";
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        recorded_at: string;
                        region: string | null;
                        sequence: number;
                        source_id: string | null;
                        supplier_establishment_country: string | null;
                        /** @enum {string} */
                        supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                        tax_class_id: string | null;
                        third_country_origin: string | null;
                        variant_reference: string | null;
                        vat_amount_minor: components["schemas"]["MoneyMinor"];
                        vat_rate_bps: number;
                    } | {
                        committed: number;
                        existing: number;
                        items: {
                            calculation_id: string | null;
                            /** @enum {string} */
                            classification_status: "classified" | "needs_review" | "excluded";
                            consignment_reference: string | null;
                            country_of_consumption: components["schemas"]["Country"];
                            currency: components["schemas"]["Currency"];
                            /** @enum {string} */
                            customer_type: "b2c" | "b2b";
                            customer_vat_number_masked: string | null;
                            dispatch_country: string | null;
                            event_id: string;
                            /** @enum {string} */
                            event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                            excise_goods: boolean | null;
                            id: string;
                            integration_id: number | null;
                            intrinsic_value_eur_minor: components["schemas"]["NullableMoneyMinor"];
                            net_amount_minor: components["schemas"]["MoneyMinor"];
                            /** @description a new event of a locked quarter: the quarter it corrects and the return that reports it */
                            notice?: {
                                code: string;
                                corrects_period: string;
                                detail: string;
                                reported_in_period: string;
                            };
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            occurred_at: string;
                            order_reference: string | null;
                            original_event_id: string | null;
                            product_reference: string | null;
                            /** @enum {string} */
                            rate_category: "standard" | "reduced" | "super_reduced" | "parking" | "zero" | "exempt";
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            recorded_at: string;
                            region: string | null;
                            sequence: number;
                            source_id: string | null;
                            /** @enum {string} */
                            status: "committed" | "existing";
                            supplier_establishment_country: string | null;
                            /** @enum {string} */
                            supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                            tax_class_id: string | null;
                            third_country_origin: string | null;
                            variant_reference: string | null;
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                            vat_rate_bps: number;
                        }[];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_batch_size, invalid_json, invalid_request, invalid_supply_events, invalid_url, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_batch_size" | "invalid_json" | "invalid_request" | "invalid_supply_events" | "invalid_url" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Conflict: supply_event_conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "supply_event_conflict";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1SupplyEventsById: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        calculation_id: string | null;
                        /** @enum {string} */
                        classification_status: "classified" | "needs_review" | "excluded";
                        consignment_reference: string | null;
                        country_of_consumption: components["schemas"]["Country"];
                        currency: components["schemas"]["Currency"];
                        /** @enum {string} */
                        customer_type: "b2c" | "b2b";
                        customer_vat_number_masked: string | null;
                        dispatch_country: string | null;
                        event_id: string;
                        /** @enum {string} */
                        event_type: "sale" | "refund" | "cancellation" | "credit_note" | "adjustment";
                        excise_goods: boolean | null;
                        id: string;
                        integration_id: number | null;
                        intrinsic_value_eur_minor: components["schemas"]["NullableMoneyMinor"];
                        net_amount_minor: components["schemas"]["MoneyMinor"];
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        occurred_at: string;
                        order_reference: string | null;
                        original_event_id: string | null;
                        product_reference: string | null;
                        /** @enum {string} */
                        rate_category: "standard" | "reduced" | "super_reduced" | "parking" | "zero" | "exempt";
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        recorded_at: string;
                        region: string | null;
                        sequence: number;
                        source_id: string | null;
                        supplier_establishment_country: string | null;
                        /** @enum {string} */
                        supply_kind: "goods" | "services" | "imported_goods" | "new_means_of_transport" | "installed_goods";
                        tax_class_id: string | null;
                        third_country_origin: string | null;
                        variant_reference: string | null;
                        vat_amount_minor: components["schemas"]["MoneyMinor"];
                        vat_rate_bps: number;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_path, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_path" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: supply_event_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "supply_event_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1TaxClassResolve: {
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
                    jurisdiction: components["schemas"]["Country"];
                    legal_date: string;
                    /** @enum {string} */
                    scheme: "cn" | "cpa";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authoritative_for_mapping: boolean;
                        catalog_digest: string | null;
                        catalog_version: string | null;
                        coverage_manifest: string;
                        coverage_manifest_digest: string | null;
                        coverage_manifest_version: number | null;
                        legal_reference: string | null;
                        matched_by: string | null;
                        matched_code: string | null;
                        matched_jurisdiction: string | null;
                        not_final_tax_treatment: boolean;
                        reasons: string[];
                        rule_id: string | null;
                        /** @enum {string} */
                        status: "resolved" | "needs_review";
                        supply_kind: string | null;
                        tax_class_id: string | null;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_catalog_version, invalid_code, invalid_json, invalid_jurisdiction, invalid_legal_date, invalid_request, invalid_scheme, invalid_url, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_catalog_version" | "invalid_code" | "invalid_json" | "invalid_jurisdiction" | "invalid_legal_date" | "invalid_request" | "invalid_scheme" | "invalid_url" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: limiter_unavailable, service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "limiter_unavailable" | "service_unavailable";
                    };
                };
            };
        };
    };
    getV1TaxClasses: {
        parameters: {
            query?: {
                /** @description RFC 3339 timestamp or YYYY-MM-DD; default now (UTC) */
                at?: string;
                country?: components["schemas"]["Country"];
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            annex_iii_points: string[];
                            description: string;
                            group_name: string;
                            group_slug: string;
                            id: string;
                            name: string;
                            preview_rate_bps?: number | null;
                            source: string;
                            tags: string[];
                        }[];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_at, invalid_country, invalid_q, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_group, unknown_parameter, unknown_tag */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_at" | "invalid_country" | "invalid_q" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_group" | "unknown_parameter" | "unknown_tag";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1TaxClassesById: {
        parameters: {
            query?: {
                /** @description RFC 3339 timestamp or YYYY-MM-DD; default now (UTC) */
                at?: string;
                country?: components["schemas"]["Country"];
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        annex_iii_points: string[];
                        description: string;
                        group_name: string;
                        group_slug: string;
                        id: string;
                        name: string;
                        rates: {
                            conditional: boolean;
                            conditions: string | null;
                            country: components["schemas"]["Country"];
                            rate_bps: number;
                            rate_type: string;
                            review_status: string;
                            sources: {
                                as_of: string;
                                legal_ref: string | null;
                                source_id: string;
                                tedb_category: string | null;
                                title: string;
                                url: string;
                            }[];
                            tax_class_id: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            valid_from: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            valid_to: string | null;
                        }[];
                        source: string;
                        tags: string[];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_at, invalid_country, invalid_path, invalid_query, invalid_request, invalid_url, malformed_request, tax_class_not_found, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_at" | "invalid_country" | "invalid_path" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "tax_class_not_found" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Not Found: tax_class_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "tax_class_not_found";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1TaxRegistrations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["TaxRegistration"][];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1TaxRegistrations: {
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
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaxRegistration"];
                };
            };
            /** @description Bad Request: api_key_in_query, effective_to_required, invalid_effective_from, invalid_effective_to, invalid_effective_window, invalid_ioss_intermediary_name, invalid_ioss_intermediary_number, invalid_json, invalid_member_state_identification, invalid_request, invalid_scheme_type, invalid_status, invalid_url, invalid_vat_registration_number, ioss_fields_not_allowed, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "effective_to_required" | "invalid_effective_from" | "invalid_effective_to" | "invalid_effective_window" | "invalid_ioss_intermediary_name" | "invalid_ioss_intermediary_number" | "invalid_json" | "invalid_member_state_identification" | "invalid_request" | "invalid_scheme_type" | "invalid_status" | "invalid_url" | "invalid_vat_registration_number" | "ioss_fields_not_allowed" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Conflict: registration_overlap */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_overlap";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: registration_limit_reached */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_limit_reached";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    patchV1TaxRegistrationsById: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaxRegistration"];
                };
            };
            /** @description Bad Request: api_key_in_query, effective_to_required, invalid_effective_from, invalid_effective_to, invalid_effective_window, invalid_ioss_intermediary_name, invalid_ioss_intermediary_number, invalid_json, invalid_member_state_identification, invalid_path, invalid_request, invalid_scheme_type, invalid_status, invalid_url, invalid_vat_registration_number, ioss_fields_not_allowed, malformed_request, scheme_type_immutable, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "effective_to_required" | "invalid_effective_from" | "invalid_effective_to" | "invalid_effective_window" | "invalid_ioss_intermediary_name" | "invalid_ioss_intermediary_number" | "invalid_json" | "invalid_member_state_identification" | "invalid_path" | "invalid_request" | "invalid_scheme_type" | "invalid_status" | "invalid_url" | "invalid_vat_registration_number" | "ioss_fields_not_allowed" | "malformed_request" | "scheme_type_immutable" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: registration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_not_found";
                    };
                };
            };
            /** @description Conflict: registration_overlap */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_overlap";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: registration_limit_reached */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "registration_limit_reached";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1Transactions: {
        parameters: {
            query?: {
                api_key_id?: string;
                country?: components["schemas"]["Country"];
                currency?: components["schemas"]["Currency"];
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            api_key_id: number;
                            country: components["schemas"]["Country"];
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            created_at: string;
                            currency: components["schemas"]["Currency"];
                            gross_amount_minor: components["schemas"]["MoneyMinor"];
                            id: string;
                            net_amount_minor: components["schemas"]["MoneyMinor"];
                            price_includes_vat: boolean;
                            rate_evidence_status: string;
                            replay_status: string;
                            source_id: string | null;
                            tax_class_id: string;
                            transaction_date: string;
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                            vat_rate_bps: number;
                        }[];
                        next_cursor: components["schemas"]["NextCursor"];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_api_key_id, invalid_country, invalid_currency, invalid_cursor, invalid_date, invalid_date_range, invalid_limit, invalid_query, invalid_request, invalid_source_id, invalid_tax_class_id, invalid_url, malformed_request, missing_from, missing_to, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_api_key_id" | "invalid_country" | "invalid_currency" | "invalid_cursor" | "invalid_date" | "invalid_date_range" | "invalid_limit" | "invalid_query" | "invalid_request" | "invalid_source_id" | "invalid_tax_class_id" | "invalid_url" | "malformed_request" | "missing_from" | "missing_to" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1TransactionsById: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        algorithm_manifest_digest: string;
                        api_key_id: number;
                        calculation_version: string;
                        country: components["schemas"]["Country"];
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        currency: components["schemas"]["Currency"];
                        evidence_status: string;
                        execution_digest: string;
                        gross_amount_minor: components["schemas"]["MoneyMinor"];
                        id: string;
                        idempotency_key_digest: string | null;
                        mapping_version: string;
                        net_amount_minor: components["schemas"]["MoneyMinor"];
                        price_includes_vat: boolean;
                        rate_effective_from: string;
                        rate_effective_to: string | null;
                        rate_evidence_status: string;
                        /** @description rate-evidence/v1; the release members are present when an approved rate release decided the rate */
                        rate_provenance: {
                            approved_release_version?: string;
                            effective_at: string;
                            evidence_status: string;
                            rate_release_digest?: string | null;
                            rate_row_digest?: string | null;
                            schema_version: string;
                            snapshot_references?: {
                                digest: string;
                                kind: string;
                            }[];
                            source: string;
                            source_evidence: {
                                as_of: string;
                                legal_ref: string | null;
                                review_status: string;
                                source_id: string;
                                tedb_category: string | null;
                                title: string;
                                url: string;
                            }[];
                        } | null;
                        rate_release_digest: string;
                        rate_release_version: string;
                        rate_source: string;
                        replay_status: string;
                        snapshot_references: {
                            digest: string;
                            kind: string;
                        }[];
                        source_id: string | null;
                        tax_class_id: string;
                        transaction_date: string;
                        vat_amount_minor: components["schemas"]["MoneyMinor"];
                        vat_rate_bps: number;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_path, invalid_request, invalid_transaction_id, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_path" | "invalid_request" | "invalid_transaction_id" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: transaction_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "transaction_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1TransactionsByIdReplay: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        calculation_id: string | null;
                        calculation_provenance: {
                            algorithm_manifest_digest: string;
                            algorithm_manifest_version: string;
                            calculation_version: string;
                            evidence_status: string;
                            execution_digest: string;
                            ownership: string;
                            replay_status: string;
                            schema_version: string;
                        } | null;
                        country: components["schemas"]["Country"];
                        currency: components["schemas"]["Currency"];
                        exact_match: boolean;
                        gross_amount_minor: components["schemas"]["MoneyMinor"];
                        net_amount_minor: components["schemas"]["MoneyMinor"];
                        /** @description rate-evidence/v1; the release members are present when an approved rate release decided the rate */
                        rate_provenance: {
                            approved_release_version?: string;
                            effective_at: string;
                            evidence_status: string;
                            rate_release_digest?: string | null;
                            rate_row_digest?: string | null;
                            schema_version: string;
                            snapshot_references?: {
                                digest: string;
                                kind: string;
                            }[];
                            source: string;
                            source_evidence: {
                                as_of: string;
                                legal_ref: string | null;
                                review_status: string;
                                source_id: string;
                                tedb_category: string | null;
                                title: string;
                                url: string;
                            }[];
                        } | null;
                        transaction_date: string;
                        vat_amount_minor: components["schemas"]["MoneyMinor"];
                        /** @description basis points (2000 = 20 %) */
                        vat_rate_bps: number;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_json, invalid_path, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_json" | "invalid_path" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: calculation_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "calculation_not_found";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1TransactionsAggregated: {
        parameters: {
            query?: {
                api_key_id?: string;
                country?: components["schemas"]["Country"];
                currency?: components["schemas"]["Currency"];
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        conversion_rule: string;
                        converted_currencies: string[];
                        disclaimer: string;
                        eur_only: boolean;
                        group_by: string;
                        period: {
                            from: string;
                            to: string;
                        };
                        rows: {
                            converted_currencies: string[];
                            gross_amount_minor: components["schemas"]["MoneyMinor"];
                            key: string;
                            net_amount_minor: components["schemas"]["MoneyMinor"];
                            transaction_count: number;
                            unconverted_currencies: string[];
                            vat_amount_minor: components["schemas"]["MoneyMinor"];
                        }[];
                        unconverted_currencies: string[];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_api_key_id, invalid_country, invalid_currency, invalid_date, invalid_date_range, invalid_group_by, invalid_query, invalid_request, invalid_source_id, invalid_tax_class_id, invalid_url, malformed_request, missing_from, missing_to, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_api_key_id" | "invalid_country" | "invalid_currency" | "invalid_date" | "invalid_date_range" | "invalid_group_by" | "invalid_query" | "invalid_request" | "invalid_source_id" | "invalid_tax_class_id" | "invalid_url" | "malformed_request" | "missing_from" | "missing_to" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1TransactionsExport: {
        parameters: {
            query: {
                api_key_id?: string;
                country?: components["schemas"]["Country"];
                currency?: components["schemas"]["Currency"];
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_api_key_id, invalid_country, invalid_currency, invalid_date, invalid_date_range, invalid_export_version, invalid_query, invalid_request, invalid_source_id, invalid_tax_class_id, invalid_url, malformed_request, missing_from, missing_to, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_api_key_id" | "invalid_country" | "invalid_currency" | "invalid_date" | "invalid_date_range" | "invalid_export_version" | "invalid_query" | "invalid_request" | "invalid_source_id" | "invalid_tax_class_id" | "invalid_url" | "malformed_request" | "missing_from" | "missing_to" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1VatNumbersCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description with its country prefix (EL for Greece); spaces, dots and hyphens are ignored; never returned */
                    vat_number: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        check: {
                            /** @description as registered, when the Member State discloses it */
                            address: string | null;
                            /** @description requests sent to VIES for this answer */
                            attempts: number;
                            /** Format: date-time */
                            checked_at: string;
                            /** @description VIES requestIdentifier: proof of the check (sent when the account has a Union OSS registration with its VAT number) */
                            consultation_number: string | null;
                            id: number;
                            /** @description VIES code of the Member State (EL for Greece) */
                            member_state: string;
                            /**
                             * @description per VIES check-status when asked
                             * @enum {string}
                             */
                            member_state_availability: "Available" | "Unavailable" | "Monitoring Disabled" | "unknown";
                            /** @description as registered, when the Member State discloses it */
                            name: string | null;
                            /** @description unavailable: the VIES error (MS_UNAVAILABLE, TIMEOUT, SERVICE_UNAVAILABLE, MS_MAX_CONCURRENT_REQ, ...) or NETWORK_ERROR; format_invalid: the expected format */
                            reason: string | null;
                            /** @description the account's own number sent as requester */
                            requester_vat_number_masked: string | null;
                            /**
                             * @description unavailable (VIES or the Member State did not answer) is never invalid
                             * @enum {string}
                             */
                            result: "valid" | "invalid" | "format_invalid" | "unavailable";
                            /** @description country prefix, asterisks, at most the last 4 characters; the number itself is never returned */
                            vat_number_masked: string;
                            /** @description requestDate of the VIES answer */
                            vies_request_date: string | null;
                        };
                        /** @description a valid or invalid answer younger than the reuse window (VIES_REUSE_DAYS) was returned */
                        reused: boolean;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_json, invalid_request, invalid_url, invalid_vat_number, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_json" | "invalid_request" | "invalid_url" | "invalid_vat_number" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV1VatNumbersChecks: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description 1-200, default 50 */
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @description as registered, when the Member State discloses it */
                            address: string | null;
                            /** @description requests sent to VIES for this answer */
                            attempts: number;
                            /** Format: date-time */
                            checked_at: string;
                            /** @description VIES requestIdentifier: proof of the check (sent when the account has a Union OSS registration with its VAT number) */
                            consultation_number: string | null;
                            id: number;
                            /** @description VIES code of the Member State (EL for Greece) */
                            member_state: string;
                            /**
                             * @description per VIES check-status when asked
                             * @enum {string}
                             */
                            member_state_availability: "Available" | "Unavailable" | "Monitoring Disabled" | "unknown";
                            /** @description as registered, when the Member State discloses it */
                            name: string | null;
                            /** @description unavailable: the VIES error (MS_UNAVAILABLE, TIMEOUT, SERVICE_UNAVAILABLE, MS_MAX_CONCURRENT_REQ, ...) or NETWORK_ERROR; format_invalid: the expected format */
                            reason: string | null;
                            /** @description the account's own number sent as requester */
                            requester_vat_number_masked: string | null;
                            /**
                             * @description unavailable (VIES or the Member State did not answer) is never invalid
                             * @enum {string}
                             */
                            result: "valid" | "invalid" | "format_invalid" | "unavailable";
                            /** @description country prefix, asterisks, at most the last 4 characters; the number itself is never returned */
                            vat_number_masked: string;
                            /** @description requestDate of the VIES answer */
                            vies_request_date: string | null;
                        }[];
                        /** @description pass as cursor for the next page; null on the last */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_cursor, invalid_limit, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_cursor" | "invalid_limit" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1VatCalculate: {
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
                    country: components["schemas"]["Country"];
                    currency: components["schemas"]["Currency"];
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        calculation_id: string | null;
                        calculation_provenance: {
                            algorithm_manifest_digest: string;
                            algorithm_manifest_version: string;
                            calculation_version: string;
                            evidence_status: string;
                            execution_digest: string;
                            ownership: string;
                            replay_status: string;
                            schema_version: string;
                        } | null;
                        country: components["schemas"]["Country"];
                        currency: components["schemas"]["Currency"];
                        gross_amount_minor: components["schemas"]["MoneyMinor"];
                        net_amount_minor: components["schemas"]["MoneyMinor"];
                        /** @description rate-evidence/v1; the release members are present when an approved rate release decided the rate */
                        rate_provenance: {
                            approved_release_version?: string;
                            effective_at: string;
                            evidence_status: string;
                            rate_release_digest?: string | null;
                            rate_row_digest?: string | null;
                            schema_version: string;
                            snapshot_references?: {
                                digest: string;
                                kind: string;
                            }[];
                            source: string;
                            source_evidence: {
                                as_of: string;
                                legal_ref: string | null;
                                review_status: string;
                                source_id: string;
                                tedb_category: string | null;
                                title: string;
                                url: string;
                            }[];
                        } | null;
                        transaction_date: string;
                        vat_amount_minor: components["schemas"]["MoneyMinor"];
                        /** @description basis points (2000 = 20 %) */
                        vat_rate_bps: number;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, idempotency_requires_v2_key, invalid_amount, invalid_country, invalid_currency, invalid_header, invalid_idempotency_key, invalid_json, invalid_price_includes_vat, invalid_request, invalid_source_id, invalid_tax_class_id, invalid_transaction_date, invalid_url, malformed_request, missing_price_includes_vat, transaction_date_required_for_idempotency, unknown_field, unknown_parameter, unknown_tax_class */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "idempotency_requires_v2_key" | "invalid_amount" | "invalid_country" | "invalid_currency" | "invalid_header" | "invalid_idempotency_key" | "invalid_json" | "invalid_price_includes_vat" | "invalid_request" | "invalid_source_id" | "invalid_tax_class_id" | "invalid_transaction_date" | "invalid_url" | "malformed_request" | "missing_price_includes_vat" | "transaction_date_required_for_idempotency" | "unknown_field" | "unknown_parameter" | "unknown_tax_class";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Conflict: idempotency_conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "idempotency_conflict";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: conditional_rate, rate_unavailable, rate_unreviewed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "conditional_rate" | "rate_unavailable" | "rate_unreviewed";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable, transient_conflict */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable" | "transient_conflict";
                    };
                };
            };
        };
    };
    getV1VatRates: {
        parameters: {
            query: {
                /** @description RFC 3339 timestamp or YYYY-MM-DD; default now (UTC) */
                at?: string;
                country: components["schemas"]["Country"];
                history?: "true" | "false";
                tax_class_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        at: string | null;
                        country: string;
                        data_release_digest: string;
                        rates: {
                            conditional: boolean;
                            conditions: string | null;
                            country: components["schemas"]["Country"];
                            rate_bps: number;
                            rate_type: string;
                            review_status: string;
                            sources: {
                                as_of: string;
                                legal_ref: string | null;
                                source_id: string;
                                tedb_category: string | null;
                                title: string;
                                url: string;
                            }[];
                            tax_class_id: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            valid_from: string;
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            valid_to: string | null;
                        }[];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, history_requires_tax_class, invalid_at, invalid_country, invalid_history, invalid_query, invalid_request, invalid_url, malformed_request, tax_class_not_found, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "history_requires_tax_class" | "invalid_at" | "invalid_country" | "invalid_history" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "tax_class_not_found" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Not Found: tax_class_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "tax_class_not_found";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1VatSmeEligibility: {
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
                    country: components["schemas"]["Country"];
                    currency: components["schemas"]["Currency"];
                    /**
                     * Format: date
                     * @description default today (UTC)
                     */
                    reference_date?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        annual_turnover_nac: number;
                        country: string;
                        currency: string;
                        data_situation_on: string;
                        disclaimer: string;
                        eligibility_status: string;
                        eligible_for_exemption: boolean | null;
                        exceeded_by_nac: number | null;
                        /** @description a published figure (not an amount the service computes with) */
                        exemption_threshold_eur: number | null;
                        /** @description a published figure (not an amount the service computes with) */
                        exemption_threshold_nac: number | null;
                        policy: {
                            exclusion_article288_quarantine_period: string | null;
                            one_national_annual_threshold: boolean | null;
                            voluntary_cessation_article290: boolean | null;
                        };
                        /**
                         * Format: date
                         * @description YYYY-MM-DD
                         */
                        reference_date: string;
                        scheme_type: string;
                        sectorals: {
                            comment: string | null;
                            /** @description a published figure (not an amount the service computes with) */
                            exemption_threshold_eur: number | null;
                            /** @description a published figure (not an amount the service computes with) */
                            exemption_threshold_nac: number | null;
                            sector: string | null;
                        }[];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_country, invalid_currency, invalid_json, invalid_reference_date, invalid_request, invalid_turnover, invalid_url, malformed_request, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_country" | "invalid_currency" | "invalid_json" | "invalid_reference_date" | "invalid_request" | "invalid_turnover" | "invalid_url" | "malformed_request" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Not Found: no_sme_data */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "no_sme_data";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: currency_mismatch */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "currency_mismatch";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV1VatThresholdCheck: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        currency: string;
                        currency_scale: number;
                        current_minor: components["schemas"]["MoneyMinor"];
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        cutoff_at?: string | null;
                        disclaimer: string;
                        evidence_status: string;
                        exceeded: boolean;
                        historical_crossing_proven: boolean;
                        percentage_used: number;
                        policy_version?: string | null;
                        previous_comparison?: string | null;
                        previous_year_minor?: components["schemas"]["NullableMoneyMinor"];
                        release_version?: string | null;
                        remaining_minor: components["schemas"]["MoneyMinor"];
                        threshold_minor: components["schemas"]["MoneyMinor"];
                        /** @enum {string} */
                        threshold_type: "oss" | "ioss";
                        unconverted_currencies: string[];
                        warning: boolean;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_amount_minor, invalid_from, invalid_json, invalid_request, invalid_threshold_range, invalid_threshold_type, invalid_to, invalid_url, malformed_request, missing_amount_minor, to_after_today, unexpected_amount_minor, unexpected_date_range, unknown_field, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_amount_minor" | "invalid_from" | "invalid_json" | "invalid_request" | "invalid_threshold_range" | "invalid_threshold_type" | "invalid_to" | "invalid_url" | "malformed_request" | "missing_amount_minor" | "to_after_today" | "unexpected_amount_minor" | "unexpected_date_range" | "unknown_field" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: article_59c_evidence_incomplete */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "article_59c_evidence_incomplete";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV2Decisions: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            answered_with: {
                                error: string | null;
                                http_status: number;
                            };
                            components: {
                                amount_minor: components["schemas"]["NullableMoneyMinor"];
                                amount_status: string;
                                calculation_id: string | null;
                                collection_point: string | null;
                                currency: string;
                                deduction_status: string;
                                findings: string[];
                                gross_amount_minor: components["schemas"]["NullableMoneyMinor"];
                                jurisdiction: string | null;
                                kind: string;
                                legal_basis: string[];
                                liable_party: string | null;
                                net_amount_minor: components["schemas"]["NullableMoneyMinor"];
                                place_of_supply_rule: string | null;
                                provenance: string[];
                                rate_category: string | null;
                                treatment: string | null;
                                treatment_status: string;
                                vat_rate_bps: number | null;
                            }[];
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            created_at: string;
                            decision_id: string;
                            evidence_profile_revision: {
                                digest: string | null;
                                revision_id: string;
                            } | null;
                            findings: string[];
                            /**
                             * Format: date-time
                             * @description RFC 3339 timestamp
                             */
                            knowledge_at: string;
                            legal_at: string;
                            request_digest: string;
                            resolver_version: string;
                            schema_version: string;
                            source_id: string | null;
                            /** @enum {string} */
                            status: "complete" | "partial" | "incomplete" | "conflicting" | "unsupported";
                            supersedes_decision_id: string | null;
                            treatment_release: {
                                digest: string | null;
                                release_id: string;
                            } | null;
                        }[];
                        next_cursor: components["schemas"]["NextCursor"];
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_cursor, invalid_limit, invalid_query, invalid_request, invalid_status, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_cursor" | "invalid_limit" | "invalid_query" | "invalid_request" | "invalid_status" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    getV2DecisionsById: {
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
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        answered_with: {
                            error: string | null;
                            http_status: number;
                        };
                        components: {
                            amount_minor: components["schemas"]["NullableMoneyMinor"];
                            amount_status: string;
                            calculation_id: string | null;
                            collection_point: string | null;
                            currency: string;
                            deduction_status: string;
                            findings: string[];
                            gross_amount_minor: components["schemas"]["NullableMoneyMinor"];
                            jurisdiction: string | null;
                            kind: string;
                            legal_basis: string[];
                            liable_party: string | null;
                            net_amount_minor: components["schemas"]["NullableMoneyMinor"];
                            place_of_supply_rule: string | null;
                            provenance: string[];
                            rate_category: string | null;
                            treatment: string | null;
                            treatment_status: string;
                            vat_rate_bps: number | null;
                        }[];
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        decision_id: string;
                        evidence_profile_revision: {
                            digest: string | null;
                            revision_id: string;
                        } | null;
                        findings: string[];
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        knowledge_at: string;
                        legal_at: string;
                        request_digest: string;
                        resolver_version: string;
                        schema_version: string;
                        source_id: string | null;
                        /** @enum {string} */
                        status: "complete" | "partial" | "incomplete" | "conflicting" | "unsupported";
                        supersedes_decision_id: string | null;
                        treatment_release: {
                            digest: string | null;
                            release_id: string;
                        } | null;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, invalid_path, invalid_query, invalid_request, invalid_url, malformed_request, unexpected_body, unknown_parameter */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "invalid_path" | "invalid_query" | "invalid_request" | "invalid_url" | "malformed_request" | "unexpected_body" | "unknown_parameter";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: decision_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "decision_not_found";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
    postV2VatCalculate: {
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
                    country: components["schemas"]["Country"];
                    currency: components["schemas"]["Currency"];
                    price_includes_vat: boolean;
                    /** Format: uuid */
                    supersedes_decision_id?: string;
                    tax_class_id?: string;
                    /** @description YYYY-MM-DD (midnight UTC) or RFC 3339; required */
                    transaction_date?: string;
                    treatment_context?: {
                        /** @enum {string} */
                        customer_type?: "b2c" | "b2b";
                        /** @description b2b only: the customer VAT number with its country prefix; its VIES evidence at the legal date decides a cross-border B2B supply (docs/vat-numbers.md). Kept only masked. */
                        customer_vat_number?: string;
                        destination_country?: components["schemas"]["Country"];
                        dispatch_country?: components["schemas"]["Country"];
                        supplier_establishment_country?: components["schemas"]["Country"];
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        components: {
                            amount_minor: components["schemas"]["NullableMoneyMinor"];
                            amount_status: string;
                            calculation_id: string | null;
                            collection_point: string | null;
                            currency: string;
                            deduction_status: string;
                            findings: string[];
                            gross_amount_minor: components["schemas"]["NullableMoneyMinor"];
                            jurisdiction: string | null;
                            kind: string;
                            legal_basis: string[];
                            liable_party: string | null;
                            net_amount_minor: components["schemas"]["NullableMoneyMinor"];
                            place_of_supply_rule: string | null;
                            provenance: string[];
                            rate_category: string | null;
                            treatment: string | null;
                            treatment_status: string;
                            vat_rate_bps: number | null;
                        }[];
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        created_at: string;
                        decision_id: string;
                        evidence_profile_revision: {
                            digest: string | null;
                            revision_id: string;
                        } | null;
                        findings: string[];
                        /**
                         * Format: date-time
                         * @description RFC 3339 timestamp
                         */
                        knowledge_at: string;
                        legal_at: string;
                        request_digest: string;
                        resolver_version: string;
                        schema_version: string;
                        source_id: string | null;
                        /** @enum {string} */
                        status: "complete" | "partial" | "incomplete" | "conflicting" | "unsupported";
                        supersedes_decision_id: string | null;
                        treatment_release: {
                            digest: string | null;
                            release_id: string;
                        } | null;
                    };
                };
            };
            /** @description Bad Request: api_key_in_query, evidence_profile_unavailable, idempotency_requires_v2_key, invalid_amount, invalid_catalog_version, invalid_classification, invalid_code, invalid_country, invalid_currency, invalid_customer_type, invalid_customer_vat_number, invalid_destination_country, invalid_dispatch_country, invalid_header, invalid_idempotency_key, invalid_json, invalid_price_includes_vat, invalid_request, invalid_scheme, invalid_source_id, invalid_supersedes_decision_id, invalid_supplier_establishment_country, invalid_tax_class_id, invalid_transaction_date, invalid_treatment_context, invalid_url, malformed_request, missing_destination_country, missing_idempotency_key, missing_price_includes_vat, missing_tax_selector, missing_transaction_date, missing_treatment_context, unknown_field, unknown_parameter, unknown_tax_class */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "api_key_in_query" | "evidence_profile_unavailable" | "idempotency_requires_v2_key" | "invalid_amount" | "invalid_catalog_version" | "invalid_classification" | "invalid_code" | "invalid_country" | "invalid_currency" | "invalid_customer_type" | "invalid_customer_vat_number" | "invalid_destination_country" | "invalid_dispatch_country" | "invalid_header" | "invalid_idempotency_key" | "invalid_json" | "invalid_price_includes_vat" | "invalid_request" | "invalid_scheme" | "invalid_source_id" | "invalid_supersedes_decision_id" | "invalid_supplier_establishment_country" | "invalid_tax_class_id" | "invalid_transaction_date" | "invalid_treatment_context" | "invalid_url" | "malformed_request" | "missing_destination_country" | "missing_idempotency_key" | "missing_price_includes_vat" | "missing_tax_selector" | "missing_transaction_date" | "missing_treatment_context" | "unknown_field" | "unknown_parameter" | "unknown_tax_class";
                    };
                };
            };
            /** @description Unauthorized: invalid_api_key, missing_api_key, session_expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "invalid_api_key" | "missing_api_key" | "session_expired";
                    };
                };
            };
            /** @description Forbidden: csrf_token_invalid, insufficient_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "csrf_token_invalid" | "insufficient_scope";
                    };
                };
            };
            /** @description Not Found: decision_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "decision_not_found";
                    };
                };
            };
            /** @description Conflict: classification_conflict, decision_conflicting, idempotency_conflict, jurisdiction_conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "classification_conflict" | "decision_conflicting" | "idempotency_conflict" | "jurisdiction_conflict";
                    };
                };
            };
            /** @description Payload Too Large: payload_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "payload_too_large";
                    };
                };
            };
            /** @description Unsupported Media Type: unsupported_media_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "unsupported_media_type";
                    };
                };
            };
            /** @description Unprocessable Entity: decision_incomplete, decision_unsupported, evidence_profile_unavailable, treatment_coverage_unavailable */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "decision_incomplete" | "decision_unsupported" | "evidence_profile_unavailable" | "treatment_coverage_unavailable";
                    };
                };
            };
            /** @description Too Many Requests: rate_limited */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "rate_limited";
                    };
                };
            };
            /** @description Internal Server Error: internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "internal_error";
                    };
                };
            };
            /** @description Service Unavailable: service_unavailable */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        error?: "service_unavailable";
                    };
                };
            };
        };
    };
}
