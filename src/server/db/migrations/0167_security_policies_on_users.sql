-- Security policies may check the user inventory as well as the devices (schemas/entities/security-policy.json,
-- `inventory`; a stored policy without one checks devices). Each evaluated policy's row says which inventory it
-- checked, so device explanations read only device policies and the console names what was counted.
--
-- `security_policy_failures` (no longer written for devices, whose failures are in their score rows) now holds the
-- users that failed each user policy of a snapshot; the user detail and the overview read them, and they are pruned
-- with the snapshot's other rows.
alter table security_policy_results add column entity text not null default 'device';
