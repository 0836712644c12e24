-- Lists order text without regard to case ("ws-2" and "WS-1" together), on the index and the documents alike
-- (orderKeySql in src/server/inventory/snapshotIndex.ts): the ordering columns of snapshots published before hold
-- their values as written, and are lower-cased here. The columns follow the schemas (added at start-up), so they are
-- found by name: every text `ix_…_first` column.
do $$
declare
  ordering_column record;
begin
  for ordering_column in
    select column_name from information_schema.columns
     where table_schema = current_schema() and table_name = 'snapshot_index' and column_name like 'ix\_%\_first' and data_type = 'text'
  loop
    execute format('update snapshot_index set %1$I = lower(%1$I) where %1$I <> lower(%1$I)', ordering_column.column_name);
  end loop;
end
$$;
